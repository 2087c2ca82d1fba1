package dev.matview.web;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

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

  /** The response of {@code request}, which has gone asynchronous already. */
  static AsyncResponse started(HttpServletRequest request) {
    return new AsyncResponse(request.getAsyncContext());
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
