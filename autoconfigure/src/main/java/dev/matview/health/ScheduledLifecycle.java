package dev.matview.health;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;

/**
 * A lifecycle bean that runs its {@link #tick()} on a named daemon thread at a fixed delay, from
 * its start until its stop.
 */
abstract class ScheduledLifecycle implements SmartLifecycle {

  /** Starts after and stops before spring-kafka's factory bean, whose phase is MAX_VALUE-1000. */
  static final int PHASE = Integer.MAX_VALUE - 900;

  private final String threadName;

  private final Duration initialDelay;

  private final Duration period;

  private @Nullable ScheduledExecutorService executor;

  ScheduledLifecycle(String threadName, Duration initialDelay, Duration period) {
    this.threadName = threadName;
    this.initialDelay = initialDelay;
    this.period = period;
  }

  /** One run of the task; it logs its own failures, so that the schedule goes on. */
  abstract void tick();

  @Override
  public final synchronized void start() {
    if (this.executor == null) {
      ScheduledExecutorService executor =
          Executors.newSingleThreadScheduledExecutor(
              (runnable) -> {
                Thread thread = new Thread(runnable, this.threadName);
                thread.setDaemon(true);
                return thread;
              });
      executor.scheduleWithFixedDelay(
          this::tick, this.initialDelay.toMillis(), this.period.toMillis(), TimeUnit.MILLISECONDS);
      this.executor = executor;
    }
  }

  @Override
  public final synchronized void stop() {
    if (this.executor != null) {
      this.executor.shutdownNow();
      this.executor = null;
    }
  }

  @Override
  public final synchronized boolean isRunning() {
    return this.executor != null;
  }

  @Override
  public final int getPhase() {
    return PHASE;
  }

  /** Runs the task once soon, besides its schedule, if running. */
  final synchronized void runSoon() {
    if (this.executor != null) {
      this.executor.execute(this::tick);
    }
  }
}
