package dev.matview.web;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.json.JsonMapper;

/**
 * The RFC 9457 problem detail of an error the servlet container answers itself, before any servlet
 * runs: its detail is the container's one-line message, never a stack trace, and a 400 that gives
 * no more reason than its status says what the container checks.
 */
final class ServerErrorProblem {

  private static final int MAX_DETAIL = 300;

  /** What a 400 that the container gave no reason for says: what it refuses before any servlet. */
  static final String UNREADABLE_REQUEST =
      "The server could not read the request: check that its path and query are percent-encoded"
          + " UTF-8 (every '%' followed by two hex digits), that a key holding '/' is asked in a"
          + " batch (a path refuses an encoded slash, %2F), and that its headers are within the"
          + " server's size limits";

  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  private ServerErrorProblem() {}

  /** The problem detail of {@code status} with the container's {@code message}, as JSON. */
  static String json(int status, @Nullable String message) {
    HttpStatus known = HttpStatus.resolve(status);
    String title = known != null ? known.getReasonPhrase() : "Error";
    Map<String, Object> problem = new LinkedHashMap<>();
    problem.put("type", "about:blank");
    problem.put("title", title);
    problem.put("status", status);
    problem.put("detail", detail(status, message, title));
    return MAPPER.writeValueAsString(problem);
  }

  private static String detail(int status, @Nullable String message, String title) {
    if (message == null || message.isBlank() || message.strip().equalsIgnoreCase(title)) {
      return status == HttpStatus.BAD_REQUEST.value() ? UNREADABLE_REQUEST : title;
    }
    String firstLine = message.lines().findFirst().orElse(title).strip();
    return firstLine.length() > MAX_DETAIL ? firstLine.substring(0, MAX_DETAIL) + "..." : firstLine;
  }
}
