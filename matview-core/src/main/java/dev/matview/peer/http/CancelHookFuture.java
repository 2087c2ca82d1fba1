package dev.matview.peer.http;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An exchange whose cancel first runs {@code onCancel}: a streamed body's consumer aborts
 * (HttpClient does not end an exchange under way on every path a cancel takes), an observation
 * stops as cancelled.
 */
public record CancelHookFuture(Future<Void> exchange, Runnable onCancel) implements Future<Void> {

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    this.onCancel.run();
    return this.exchange.cancel(mayInterruptIfRunning);
  }

  @Override
  public boolean isCancelled() {
    return this.exchange.isCancelled();
  }

  @Override
  public boolean isDone() {
    return this.exchange.isDone();
  }

  @Override
  public Void get() throws InterruptedException, ExecutionException {
    return this.exchange.get();
  }

  @Override
  public Void get(long timeout, TimeUnit unit)
      throws InterruptedException, ExecutionException, TimeoutException {
    return this.exchange.get(timeout, unit);
  }
}
