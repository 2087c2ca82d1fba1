package dev.matview.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.http.ResponseEntity;

/**
 * Writes an answer that is bytes already straight to the response of a request that waited for it,
 * with no second dispatch through the filters and Spring MVC, which would only copy them.
 */
final class RelayedWrites {

  private RelayedWrites() {}

  /**
   * Writes {@code answer} and completes the response when it is bytes that fit the response's
   * buffer, so the write never waits for the client, and {@code claim} was free; {@code false},
   * having written nothing, otherwise.
   */
  static boolean tryWrite(HttpServletRequest request, Object answer, AtomicBoolean claim) {
    if (!(answer instanceof ResponseEntity<?> entity)
        || !(entity.getBody() instanceof byte[] body)
        || !request.isAsyncStarted()) {
      return false;
    }
    AsyncResponse async = AsyncResponse.started(request);
    HttpServletResponse response = async.response();
    if (body.length > response.getBufferSize() || !claim.compareAndSet(false, true)) {
      return false;
    }
    try {
      response.setStatus(entity.getStatusCode().value());
      entity
          .getHeaders()
          .forEach((name, values) -> values.forEach((v) -> response.addHeader(name, v)));
      response.setContentLength(body.length);
      response.getOutputStream().write(body);
    } catch (IOException | IllegalStateException ex) {
      // the client went away or the container ended the request: nobody is left to answer
    } finally {
      async.complete();
    }
    return true;
  }
}
