package dev.matview.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.ObjectMapper;

/** Writes a problem detail, or another instance's answer, straight to a servlet response. */
final class ProblemWriter {

  private final String basePath;

  private final ObjectMapper mapper;

  /** A writer for the requests under {@code basePath} (no trailing slash), with {@code mapper}. */
  ProblemWriter(String basePath, ObjectMapper mapper) {
    this.basePath = basePath;
    this.mapper = mapper;
  }

  /** Whether {@code requestUri}, less {@code contextPath}, lies under the base path. */
  boolean covers(String requestUri, String contextPath) {
    return requestUri.startsWith(contextPath)
        && lies(requestUri.substring(contextPath.length()), this.basePath);
  }

  /** Whether {@code path} is {@code prefix} or lies under it; never when either is unknown. */
  static boolean lies(@Nullable String path, @Nullable String prefix) {
    return path != null && prefix != null && (path.equals(prefix) || path.startsWith(prefix + "/"));
  }

  /** Answers {@code response} with {@code problem}. */
  void write(HttpServletResponse response, ProblemDetail problem) throws IOException {
    write(response, this.mapper, problem);
  }

  private static void write(
      HttpServletResponse response, ObjectMapper mapper, ProblemDetail problem) throws IOException {
    response.setStatus(problem.getStatus());
    response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
    response.setCharacterEncoding("UTF-8");
    mapper.writeValue(response.getOutputStream(), fields(problem));
  }

  /**
   * Writes {@code answer} as Spring MVC would, a problem detail's {@code instance} the request's
   * path.
   */
  static void write(
      HttpServletRequest request,
      HttpServletResponse response,
      ObjectMapper mapper,
      ResponseEntity<?> answer)
      throws IOException {
    response.setStatus(answer.getStatusCode().value());
    answer.getHeaders().forEach((name, values) -> values.forEach(v -> response.addHeader(name, v)));
    Object body = answer.getBody();
    if (body instanceof ProblemDetail problem) {
      if (problem.getInstance() == null) {
        problem.setInstance(URI.create(request.getRequestURI()));
      }
      write(response, mapper, problem);
    } else if (body instanceof byte[] bytes) {
      response.getOutputStream().write(bytes);
    }
  }

  /** The fields of {@code problem} as RFC 9457 writes them, its properties at the top level. */
  private static Map<String, @Nullable Object> fields(ProblemDetail problem) {
    Map<String, @Nullable Object> fields = new LinkedHashMap<>();
    URI type = problem.getType();
    fields.put("type", type != null ? type.toString() : "about:blank");
    fields.put("title", problem.getTitle());
    fields.put("status", problem.getStatus());
    fields.put("detail", problem.getDetail());
    URI instance = problem.getInstance();
    if (instance != null) {
      fields.put("instance", instance.toString());
    }
    Map<String, @Nullable Object> properties = problem.getProperties();
    if (properties != null) {
      properties.forEach(fields::put);
    }
    return fields;
  }
}
