package dev.matview.web;

import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.replica.AppliedOffset;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * Lets a lookup whose replica here has not yet applied what the caller asked to see wait for it
 * without a thread: the request goes asynchronous, the store partition wakes it when it has applied
 * more, and it is asked again, until it answers or the wait is over, when the refusal goes out as
 * it is; or every {@link #POLL} when the broker tells more than the replica ({@link
 * Refusal.Behind#poll()}). Two small threads ask again and end waits for every waiting lookup of
 * the instance.
 */
final class BoundWaits implements AutoCloseable {

  /** How often a lookup asks again when more than its replica's progress tells when it is there. */
  private static final Duration POLL = Duration.ofMillis(100);

  private final ExecutorService askers;

  private final ScheduledThreadPoolExecutor deadlines;

  private final AtomicInteger waiting = new AtomicInteger();

  BoundWaits() {
    this.askers =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(),
            new CustomizableThreadFactory("matview-bound-wait-"));
    this.deadlines =
        new ScheduledThreadPoolExecutor(
            1, new CustomizableThreadFactory("matview-bound-deadline-"));
    this.deadlines.setRemoveOnCancelPolicy(true);
  }

  /**
   * What to wait for when {@code first} is the refusal of a replica here that has not applied what
   * the caller asked to see and {@code wait} is positive, else {@code null}.
   */
  <T> Refusal.@Nullable Behind behind(Routed<T> first, Duration wait) {
    if (wait.isZero() || wait.isNegative() || !(first instanceof Routed.Refused<T> refused)) {
      return null;
    }
    return refused.refusal().behind();
  }

  /**
   * Asks {@code attempt} again each time the replica that {@code behind} names has applied what was
   * missing, until it is not so refused or {@code wait} has passed, and sets {@code result} to
   * {@code respond} of its last answer.
   */
  <T> void await(
      Refusal.Behind behind,
      Routed<T> refusal,
      Duration wait,
      Supplier<Routed<T>> attempt,
      Function<Routed<T>, ResponseEntity<?>> respond,
      DeferredResult<ResponseEntity<?>> result) {
    this.waiting.incrementAndGet();
    new Wait<>(System.nanoTime() + wait.toNanos(), attempt, respond, result).on(behind, refusal);
  }

  /** How many lookups wait now. */
  int waiting() {
    return this.waiting.get();
  }

  @Override
  public void close() {
    this.deadlines.shutdownNow();
    this.askers.shutdownNow();
  }

  /** One lookup's wait, across as many wakes as it takes. */
  private final class Wait<T> {

    private final long deadline;

    private final Supplier<Routed<T>> attempt;

    private final Function<Routed<T>, ResponseEntity<?>> respond;

    private final DeferredResult<ResponseEntity<?>> result;

    Wait(
        long deadline,
        Supplier<Routed<T>> attempt,
        Function<Routed<T>, ResponseEntity<?>> respond,
        DeferredResult<ResponseEntity<?>> result) {
      this.deadline = deadline;
      this.attempt = attempt;
      this.respond = respond;
      this.result = result;
    }

    void on(Refusal.Behind behind, Routed<T> refusal) {
      long left = this.deadline - System.nanoTime();
      if (left <= 0) {
        finish(refusal);
        return;
      }
      AtomicBoolean woken = new AtomicBoolean();
      AtomicReference<@Nullable ScheduledFuture<?>> timer = new AtomicReference<>();
      AppliedOffset.Waiter waiter =
          behind
              .offset()
              .await(
                  behind.required(),
                  () -> {
                    if (woken.compareAndSet(false, true)) {
                      cancel(timer.get());
                      BoundWaits.this.askers.execute(this::askAgain);
                    }
                  });
      boolean asksAgain = behind.poll() && left > POLL.toNanos();
      timer.set(
          BoundWaits.this.deadlines.schedule(
              () -> {
                if (woken.compareAndSet(false, true)) {
                  behind.offset().forget(waiter);
                  BoundWaits.this.askers.execute(
                      asksAgain ? this::askAgain : () -> finish(refusal));
                }
              },
              asksAgain ? POLL.toNanos() : left,
              TimeUnit.NANOSECONDS));
      if (woken.get()) {
        cancel(timer.get());
      }
    }

    private static void cancel(@Nullable ScheduledFuture<?> timer) {
      if (timer != null) {
        timer.cancel(false);
      }
    }

    private void askAgain() {
      Routed<T> next;
      try {
        next = this.attempt.get();
      } catch (RuntimeException ex) {
        BoundWaits.this.waiting.decrementAndGet();
        this.result.setErrorResult(ex);
        return;
      }
      Refusal.@Nullable Behind behind =
          behind(next, Duration.ofNanos(this.deadline - System.nanoTime()));
      if (behind == null) {
        finish(next);
      } else {
        on(behind, next);
      }
    }

    private void finish(Routed<T> answer) {
      BoundWaits.this.waiting.decrementAndGet();
      try {
        this.result.setResult(this.respond.apply(answer));
      } catch (RuntimeException ex) {
        this.result.setErrorResult(ex);
      }
    }
  }
}
