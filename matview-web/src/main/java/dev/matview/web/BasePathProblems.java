package dev.matview.web;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
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
    return lies(requestUri.substring(contextPath.length()), this.basePath);
  }

  /** Whether {@code path} is {@code prefix} or lies under it; never when either is unknown. */
  static boolean lies(@Nullable String path, @Nullable String prefix) {
    return path != null && prefix != null && (path.equals(prefix) || path.startsWith(prefix + "/"));
  }

  /** Answers {@code response} with {@code problem}. */
  void write(HttpServletResponse response, ProblemDetail problem) throws IOException {
    ProblemWriter.write(response, this.mapper, problem);
  }
}
