package dev.matview.web;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.ProblemDetail;
import tools.jackson.databind.ObjectMapper;

/**
 * The problem details of requests under the lookup endpoints' base path that are answered outside
 * Spring MVC's converters: which requests lie under it, and the problem written to their response.
 */
final class BasePathProblems {

  private final String basePath;

  private final ObjectMapper mapper;

  /**
   * Problems of the requests under {@code basePath} (no trailing slash), written by {@code mapper}.
   */
  BasePathProblems(String basePath, ObjectMapper mapper) {
    this.basePath = basePath;
    this.mapper = mapper;
  }

  /** Whether {@code requestUri}, less {@code contextPath}, lies under the base path. */
  boolean covers(String requestUri, String contextPath) {
    if (!requestUri.startsWith(contextPath)) {
      return false;
    }
    String path = requestUri.substring(contextPath.length());
    return path.equals(this.basePath) || path.startsWith(this.basePath + "/");
  }

  /** Answers {@code response} with {@code problem}. */
  void write(HttpServletResponse response, ProblemDetail problem) throws IOException {
    ProblemWriter.write(response, this.mapper, problem);
  }
}
