package dev.matview.web;

import dev.matview.position.ReadBound;
import dev.matview.query.answer.Futures;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * Starts a read that names records with {@code after=} once they are known to be written: at once
 * when the ends seen before tell, else on a worker once the broker has answered, with no thread
 * waiting for it; a record no replica can read fails the read with its refusal.
 */
final class WrittenFirst {

  private final WrittenRecords written;

  private final Executor workers;

  /** Reads that {@code written} checks first, started on {@code workers}. */
  WrittenFirst(WrittenRecords written, Executor workers) {
    this.written = written;
    this.workers = workers;
  }

  /** {@code read}'s answer, started once the records {@code bound} names are written. */
  <T> CompletableFuture<T> read(String view, ReadBound bound, Supplier<CompletableFuture<T>> read) {
    CompletableFuture<Void> checked = this.written.written(view, bound);
    if (checked.isDone()) {
      Futures.now(checked);
      return read.get();
    }
    CompletableFuture<T> result = new CompletableFuture<>();
    checked.whenComplete(
        (done, failure) -> {
          if (failure != null) {
            result.completeExceptionally(Futures.unwrapped(failure));
            return;
          }
          Runnable start = () -> readInto(read, result);
          try {
            this.workers.execute(start);
          } catch (RejectedExecutionException ex) {
            start.run();
          }
        });
    return result;
  }

  private static <T> void readInto(
      Supplier<CompletableFuture<T>> read, CompletableFuture<T> result) {
    try {
      read.get()
          .whenComplete(
              (answer, failure) -> {
                if (failure != null) {
                  result.completeExceptionally(Futures.unwrapped(failure));
                } else {
                  result.complete(answer);
                }
              });
    } catch (RuntimeException ex) {
      result.completeExceptionally(ex);
    }
  }
}
