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
 * Tomcat's error report as an RFC 9457 problem detail ({@link ServerErrorProblem}) instead of an
 * HTML page, for the errors Tomcat answers before any servlet runs and any error response no one
 * wrote a body for.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

  private final @Nullable String lookupPath;

  /** A valve for lookup endpoints under {@code lookupPath}, context and base path, or none. */
  public ProblemErrorReportValve(@Nullable String lookupPath) {
    this.lookupPath = lookupPath;
  }

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
    try {
      response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
      response.setCharacterEncoding("UTF-8");
      Writer writer = response.getReporter();
      if (writer != null) {
        writer.write(
            ServerErrorProblem.json(
                status,
                response.getMessage(),
                throwable,
                request.getRequestURI(),
                this.lookupPath));
        response.finishResponse();
      }
    } catch (IOException | IllegalStateException ex) {
      // The client cannot be told: the response is already broken.
      getContainer().getLogger().debug("Could not write the problem detail", ex);
    }
  }
}
