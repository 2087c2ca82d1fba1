package dev.matview.health;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/** Runs one task on a named daemon thread at a fixed delay, between {@link #start} and stop. */
final class DaemonSchedule {

  private final String threadName;

  private final Runnable task;

  private final Duration initialDelay;

  private final Duration period;

  private @Nullable ScheduledExecutorService executor;

  DaemonSchedule(String threadName, Runnable task, Duration initialDelay, Duration period) {
    this.threadName = threadName;
    this.task = task;
    this.initialDelay = initialDelay;
    this.period = period;
  }

  synchronized void start() {
    if (this.executor == null) {
      ScheduledExecutorService executor =
          Executors.newSingleThreadScheduledExecutor(
              (runnable) -> {
                Thread thread = new Thread(runnable, this.threadName);
                thread.setDaemon(true);
                return thread;
              });
      executor.scheduleWithFixedDelay(
          this.task, this.initialDelay.toMillis(), this.period.toMillis(), TimeUnit.MILLISECONDS);
      this.executor = executor;
    }
  }

  synchronized void stop() {
    if (this.executor != null) {
      this.executor.shutdownNow();
      this.executor = null;
    }
  }

  synchronized boolean isRunning() {
    return this.executor != null;
  }

  /** Runs the task once soon, besides its schedule, if running. */
  synchronized void runSoon() {
    if (this.executor != null) {
      this.executor.execute(this.task);
    }
  }
}
