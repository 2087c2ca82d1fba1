package dev.matview.query.answer;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** Reads the outcome of a lookup that may still wait for another instance's answer. */
public final class Futures {

  private Futures() {}

  /** The value of {@code done}, already completed, or what it failed with, unwrapped. */
  public static <T> T now(CompletableFuture<T> done) {
    if (!done.isDone()) {
      throw new IllegalStateException("The answer is not there yet");
    }
    try {
      return done.join();
    } catch (CompletionException ex) {
      throw unwrapped(ex);
    }
  }

  /** What {@code failure}, thrown by a future's stage, was thrown for, unchecked. */
  public static RuntimeException unwrapped(Throwable failure) {
    Throwable cause =
        (failure instanceof CompletionException && failure.getCause() != null)
            ? failure.getCause()
            : failure;
    if (cause instanceof RuntimeException unchecked) {
      return unchecked;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    return new CompletionException(cause);
  }
}
