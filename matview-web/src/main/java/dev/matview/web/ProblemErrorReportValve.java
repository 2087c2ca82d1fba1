package dev.matview.web;

import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;

/**
 * Tomcat's error report as an RFC 9457 problem detail instead of an HTML page: for the errors
 * Tomcat answers itself, before any servlet runs (a request target with invalid characters, a bad
 * percent-escape, a header too large), and for any error response no one wrote a body for. The
 * detail is Tomcat's one-line message ({@link ServerErrorProblem}).
 */
public class ProblemErrorReportValve extends ErrorReportValve {

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
    String message = response.getMessage();
    if ((message == null || message.isBlank()) && throwable != null) {
      message = throwable.getMessage();
    }
    try {
      response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
      response.setCharacterEncoding("UTF-8");
      Writer writer = response.getReporter();
      if (writer != null) {
        writer.write(ServerErrorProblem.json(status, message));
        response.finishResponse();
      }
    } catch (IOException | IllegalStateException ex) {
      // The client cannot be told: the response is already broken.
      getContainer().getLogger().debug("Could not write the problem detail", ex);
    }
  }
}
