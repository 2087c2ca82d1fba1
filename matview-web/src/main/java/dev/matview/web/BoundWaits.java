package dev.matview.web;

import dev.matview.query.answer.Futures;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.replica.PartitionProgress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Lets a lookup whose replica here has not yet applied what the caller asked to see wait for it
 * without a thread: the store partition's progress ({@link Refusal.Behind#progress()}) or a poll
 * every {@link #POLL} ({@link Refusal.Behind#poll()}) wakes it on a worker to be asked again,
 * routed anew, until it answers or the timer ends the wait and the refusal goes out as it is.
 */
final class BoundWaits {

  /** How often a lookup asks again when more than its replica's progress tells when it is there. */
  private static final Duration POLL = Duration.ofMillis(100);

  private final ScheduledExecutorService timer;

  private final Executor workers;

  private final AtomicInteger waiting = new AtomicInteger();

  /** Waits kept on {@code timer}, whose attempts run on {@code workers}. */
  BoundWaits(ScheduledExecutorService timer, Executor workers) {
    this.timer = timer;
    this.workers = workers;
  }

  /** What to wait for when {@code first} is a replica's here behind and {@code wait} positive. */
  <T> Refusal.@Nullable Behind behind(Routed<T> first, Duration wait) {
    if (wait.isZero() || wait.isNegative() || !(first instanceof Routed.Refused<T> refused)) {
      return null;
    }
    return refused.refusal().behind();
  }

  /**
   * Waits for {@code first} without a thread, asks {@code attempt} again each time the replica here
   * that refused it has applied more, until it is not so refused or {@code wait} has passed, and
   * completes {@code result} with {@code respond} of its last answer.
   */
  <T, R> void await(
      CompletableFuture<Routed<T>> first,
      Duration wait,
      Supplier<CompletableFuture<Routed<T>>> attempt,
      Function<Routed<T>, R> respond,
      CompletableFuture<R> result) {
    this.waiting.incrementAndGet();
    new Wait<>(System.nanoTime() + wait.toNanos(), attempt, respond, result).after(first);
  }

  /** How many lookups wait now. */
  int waiting() {
    return this.waiting.get();
  }

  /** One lookup's wait, across as many wakes as it takes. */
  private final class Wait<T, R> {

    private final long deadline;

    private final Supplier<CompletableFuture<Routed<T>>> attempt;

    private final Function<Routed<T>, R> respond;

    private final CompletableFuture<R> result;

    Wait(
        long deadline,
        Supplier<CompletableFuture<Routed<T>>> attempt,
        Function<Routed<T>, R> respond,
        CompletableFuture<R> result) {
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
      PartitionProgress.Wait waiting =
          behind
              .progress()
              .await(
                  () -> {
                    if (woken.compareAndSet(false, true)) {
                      cancel(timer.get());
                      handOn(this::askAgain, refusal);
                    }
                  });
      boolean asksAgain = behind.poll() && left > POLL.toNanos();
      Runnable due =
          () -> {
            if (woken.compareAndSet(false, true)) {
              waiting.forget();
              handOn(asksAgain ? this::askAgain : () -> finish(refusal), refusal);
            }
          };
      try {
        timer.set(
            BoundWaits.this.timer.schedule(
                due, asksAgain ? POLL.toNanos() : left, TimeUnit.NANOSECONDS));
      } catch (RejectedExecutionException ex) {
        if (woken.compareAndSet(false, true)) {
          waiting.forget();
          finish(refusal);
        }
      }
      if (woken.get()) {
        cancel(timer.get());
      }
    }

    /** Has a worker run {@code next}, or answers {@code refusal} here when the workers are full. */
    private void handOn(Runnable next, Routed<T> refusal) {
      try {
        BoundWaits.this.workers.execute(next);
      } catch (RejectedExecutionException ex) {
        finish(refusal);
      }
    }

    private static void cancel(@Nullable ScheduledFuture<?> timer) {
      if (timer != null) {
        timer.cancel(false);
      }
    }

    private void askAgain() {
      CompletableFuture<Routed<T>> next;
      try {
        next = this.attempt.get();
      } catch (RuntimeException ex) {
        fail(ex);
        return;
      }
      after(next);
    }

    /** Goes on with {@code answer} once it is there, on the thread that completes it. */
    void after(CompletableFuture<Routed<T>> answer) {
      answer.whenComplete(
          (routed, failure) -> {
            if (routed == null) {
              fail(Futures.unwrapped(failure));
              return;
            }
            Refusal.@Nullable Behind behind =
                behind(routed, Duration.ofNanos(this.deadline - System.nanoTime()));
            if (behind == null) {
              finish(routed);
            } else {
              on(behind, routed);
            }
          });
    }

    private void fail(RuntimeException failure) {
      BoundWaits.this.waiting.decrementAndGet();
      this.result.completeExceptionally(failure);
    }

    private void finish(Routed<T> answer) {
      BoundWaits.this.waiting.decrementAndGet();
      try {
        this.result.complete(this.respond.apply(answer));
      } catch (RuntimeException ex) {
        this.result.completeExceptionally(ex);
      }
    }
  }
}
