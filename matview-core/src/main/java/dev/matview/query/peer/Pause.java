package dev.matview.query.peer;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A pause before work that goes on without a thread waiting: a gathering window, or the wait before
 * a lookup is tried again.
 */
@FunctionalInterface
interface Pause {

  /** No pause: the work runs at once, on the thread that gives it. */
  Pause NONE = (work, whenRefused) -> work.run();

  /** Runs {@code work} after the pause, or {@code whenRefused} when no thread takes it. */
  void then(Runnable work, Runnable whenRefused);

  /** A pause of {@code length} on {@code timer}, whose task hands the work to {@code workers}. */
  static Pause of(Duration length, ScheduledExecutorService timer, Executor workers) {
    return (work, whenRefused) -> {
      Runnable handOn =
          () -> {
            try {
              workers.execute(work);
            } catch (RejectedExecutionException ex) {
              whenRefused.run();
            }
          };
      try {
        timer.schedule(handOn, length.toNanos(), TimeUnit.NANOSECONDS);
      } catch (RejectedExecutionException ex) {
        whenRefused.run();
      }
    };
  }
}
