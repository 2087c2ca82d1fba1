package dev.matview.web;

import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Refuses {@code TRACE} on Jetty with a 405, as Tomcat does by default: a servlet's {@code TRACE}
 * echoes the request's headers, cookies and credentials included, back to whoever sent it.
 */
public class TraceRefusal extends Handler.Wrapper {

  public TraceRefusal(Handler handler) {
    super(handler);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (HttpMethod.TRACE.is(request.getMethod())) {
      Response.writeError(
          request,
          response,
          callback,
          HttpStatus.METHOD_NOT_ALLOWED_405,
          "TRACE is not allowed: it would echo the request's headers back");
      return true;
    }
    return super.handle(request, response, callback);
  }
}
