package dev.matview.peer.http;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An exchange whose cancel also aborts its body's consumer: HttpClient does not end an exchange
 * under way on every path a cancel takes, and a stream that is no longer read would otherwise keep
 * its connection, and the other instance's stream, open.
 */
record AbortingFuture(Future<Void> exchange, StreamingResponseConsumer body)
    implements Future<Void> {

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    this.body.abort();
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
