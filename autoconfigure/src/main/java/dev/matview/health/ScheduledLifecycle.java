package dev.matview.health;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;

/**
 * A lifecycle bean that runs its {@link #tick()} at a fixed delay, handed by a timer to the polls'
 * threads, where it may wait for the broker; one tick runs at a time, none once stopped.
 */
abstract class ScheduledLifecycle implements SmartLifecycle {

  /** Starts after and stops before spring-kafka's factory bean, whose phase is MAX_VALUE-1000. */
  static final int PHASE = Integer.MAX_VALUE - 900;

  private final ScheduledExecutorService timer;

  private final Executor polls;

  private final Duration initialDelay;

  private final Duration period;

  private final AtomicBoolean wanted = new AtomicBoolean();

  private final AtomicBoolean ticking = new AtomicBoolean();

  private @Nullable ScheduledFuture<?> schedule;

  ScheduledLifecycle(
      ScheduledExecutorService timer, Executor polls, Duration initialDelay, Duration period) {
    this.timer = timer;
    this.polls = polls;
    this.initialDelay = initialDelay;
    this.period = period;
  }

  /** One run of the task; it logs its own failures, so that the schedule goes on. */
  abstract void tick();

  @Override
  public final synchronized void start() {
    if (this.schedule == null) {
      this.schedule =
          this.timer.scheduleWithFixedDelay(
              this::handOn,
              this.initialDelay.toMillis(),
              this.period.toMillis(),
              TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public final synchronized void stop() {
    if (this.schedule != null) {
      this.schedule.cancel(false);
      this.schedule = null;
    }
  }

  @Override
  public final synchronized boolean isRunning() {
    return this.schedule != null;
  }

  @Override
  public final int getPhase() {
    return PHASE;
  }

  /** Runs the task once soon, besides its schedule, if running. */
  final synchronized void runSoon() {
    if (this.schedule != null) {
      handOn();
    }
  }

  /** Has a poll thread tick, or the one at it tick again; one the polls refuse waits a period. */
  private void handOn() {
    this.wanted.set(true);
    if (this.ticking.compareAndSet(false, true)) {
      try {
        this.polls.execute(this::ticks);
      } catch (RejectedExecutionException ex) {
        this.ticking.set(false);
      }
    }
  }

  private void ticks() {
    try {
      while (this.wanted.getAndSet(false) && isRunning()) {
        tick();
      }
    } finally {
      this.ticking.set(false);
    }
    if (this.wanted.get()) {
      handOn();
    }
  }
}
