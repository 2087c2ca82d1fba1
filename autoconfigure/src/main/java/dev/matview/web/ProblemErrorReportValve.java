package dev.matview.web;

import java.io.IOException;
import java.io.Writer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tomcat's error report as an RFC 9457 problem detail instead of an HTML page: for the errors
 * Tomcat answers itself, before any servlet runs (a request target with invalid characters, a bad
 * percent-escape, a header too large), and for any error response no one wrote a body for. The
 * detail is Tomcat's one-line message, never a stack trace; a 400 without one says what Tomcat
 * checks.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

  private static final int MAX_DETAIL = 300;

  /** What a 400 that Tomcat gave no reason for says: what it refuses before any servlet runs. */
  static final String UNREADABLE_REQUEST =
      "The server could not read the request: check that its path and query are percent-encoded"
          + " UTF-8 (every '%' followed by two hex digits), that a key holding '/' is asked in a"
          + " batch (a path refuses an encoded slash, %2F), and that its headers are within the"
          + " server's size limits";

  private final JsonMapper mapper = JsonMapper.builder().build();

  @Override
  protected void report(Request request, Response response, @Nullable Throwable throwable) {
    int status = response.getStatus();
    if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
      return;
    }
    AtomicBoolean ioAllowed = new AtomicBoolean(false);
    response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
    if (!ioAllowed.get()) {
      return;
    }
    HttpStatus known = HttpStatus.resolve(status);
    String title = known != null ? known.getReasonPhrase() : "Error";
    Map<String, Object> problem = new LinkedHashMap<>();
    problem.put("type", "about:blank");
    problem.put("title", title);
    problem.put("status", status);
    problem.put("detail", detail(response, throwable, title));
    try {
      response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
      response.setCharacterEncoding("UTF-8");
      Writer writer = response.getReporter();
      if (writer != null) {
        writer.write(this.mapper.writeValueAsString(problem));
        response.finishResponse();
      }
    } catch (IOException | IllegalStateException ex) {
      // The client cannot be told: the response is already broken.
      getContainer().getLogger().debug("Could not write the problem detail", ex);
    }
  }

  private static String detail(Response response, @Nullable Throwable throwable, String title) {
    String message = response.getMessage();
    if ((message == null || message.isBlank()) && throwable != null) {
      message = throwable.getMessage();
    }
    if (message == null || message.isBlank()) {
      return response.getStatus() == HttpStatus.BAD_REQUEST.value() ? UNREADABLE_REQUEST : title;
    }
    String firstLine = message.lines().findFirst().orElse(title).strip();
    return firstLine.length() > MAX_DETAIL ? firstLine.substring(0, MAX_DETAIL) + "..." : firstLine;
  }
}
