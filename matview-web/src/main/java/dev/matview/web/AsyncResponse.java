package dev.matview.web;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.http.ResponseEntity;

/** A response written after its handler returned, the request asynchronous without a timeout. */
final class AsyncResponse {

  private final AsyncContext context;

  private AsyncResponse(AsyncContext context) {
    this.context = context;
  }

  /** Takes {@code request} asynchronous, without a timeout of its own. */
  static AsyncResponse start(HttpServletRequest request, HttpServletResponse response) {
    AsyncContext context = request.startAsync(request, response);
    context.setTimeout(0);
    return new AsyncResponse(context);
  }

  /**
   * Writes {@code answer}, bytes already (such as another instance's), straight to the response of
   * {@code request}, which waited for it, and completes it, with no second dispatch through the
   * filters and Spring MVC, which would only copy them: when they fit the response's buffer, so the
   * write never waits for the client, and {@code claim} was free; {@code false}, having written
   * nothing, otherwise.
   */
  static boolean tryWrite(HttpServletRequest request, Object answer, AtomicBoolean claim) {
    if (!(answer instanceof ResponseEntity<?> entity)
        || !(entity.getBody() instanceof byte[] body)
        || !request.isAsyncStarted()) {
      return false;
    }
    AsyncResponse async = new AsyncResponse(request.getAsyncContext());
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

  /** Runs {@code completed} once the response completes, else {@code failed}. */
  void whenOver(Runnable completed, Runnable failed) {
    this.context.addListener(new Over(completed, failed));
  }

  /** The response. */
  HttpServletResponse response() {
    return (HttpServletResponse) this.context.getResponse();
  }

  /** Runs {@code step} on a container thread, unless the response is over. */
  void run(Runnable step) {
    this.context.start(step);
  }

  /** Ends the response, unless the container has ended it already. */
  void complete() {
    try {
      this.context.complete();
    } catch (IllegalStateException ex) {
      // the container ended the request already, after an error
    }
  }

  /** Hears the end of the response. */
  private record Over(Runnable completed, Runnable failed) implements AsyncListener {

    @Override
    public void onComplete(AsyncEvent event) {
      this.completed.run();
    }

    @Override
    public void onTimeout(AsyncEvent event) {
      this.failed.run();
    }

    @Override
    public void onError(AsyncEvent event) {
      this.failed.run();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
      // the context this listens to is the one the response started
    }
  }
}
