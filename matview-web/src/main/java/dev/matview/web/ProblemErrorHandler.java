package dev.matview.web;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.jspecify.annotations.Nullable;

/**
 * Jetty's error page as an RFC 9457 problem detail ({@link ServerErrorProblem}) instead of an HTML
 * page, for the errors Jetty answers before any servlet runs.
 */
public class ProblemErrorHandler extends ErrorHandler {

  private static final String PROBLEM_JSON = "application/problem+json;charset=utf-8";

  private final @Nullable String lookupPath;

  /** A handler for lookup endpoints under {@code lookupPath}, context and base path, or none. */
  public ProblemErrorHandler(@Nullable String lookupPath) {
    this.lookupPath = lookupPath;
  }

  /** A body for every method's error, {@code TRACE}'s refusal too, not only for Jetty's three. */
  @Override
  public boolean errorPageForMethod(String method) {
    return true;
  }

  @Override
  protected void generateResponse(
      Request request,
      Response response,
      int code,
      @Nullable String message,
      @Nullable Throwable cause,
      Callback callback) {
    String path = request.getHttpURI().getPath();
    byte[] body =
        ServerErrorProblem.json(code, message, cause, path, this.lookupPath)
            .getBytes(StandardCharsets.UTF_8);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, PROBLEM_JSON);
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), callback);
  }

  @Override
  public ByteBuffer badMessageError(
      int status, @Nullable String reason, HttpFields.Mutable fields) {
    fields.put(HttpHeader.CONTENT_TYPE, PROBLEM_JSON);
    return ByteBuffer.wrap(
        ServerErrorProblem.json(status, reason, null, null, null).getBytes(StandardCharsets.UTF_8));
  }
}
