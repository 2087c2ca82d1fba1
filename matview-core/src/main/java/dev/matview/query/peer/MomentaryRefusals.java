package dev.matview.query.peer;

import dev.matview.peer.PeerResponse;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Routes a lookup again, after a short pause and without a request thread waiting, while every
 * replica refuses it for a moment only: the instances rebalance, a replica's lag is about to be
 * known, an instance was just found down. Instances that come and go then cost clients a slower
 * answer instead of a 503, for as long as {@code within} allows. Only the instance a client asked
 * tries again (one asked by another instance answers at once, and the asker tries again), and a
 * lookup whose replica is behind the caller's position waits for it in its own way, not here; a
 * lookup that asks for a position and is still refused for a moment when {@code within} is over
 * goes on waiting that way, asking again every poll, for as long as its own wait allows. The pause
 * is kept on a timer, which hands the next attempt to the workers; when either takes no more, the
 * refusal is answered at once.
 */
public final class MomentaryRefusals {

  /** The pause between two attempts. */
  static final Duration PAUSE = Duration.ofMillis(250);

  private static final Set<Refusal.Reason> MOMENTARY =
      EnumSet.of(
          Refusal.Reason.OWNER_UNKNOWN, Refusal.Reason.UNAVAILABLE, Refusal.Reason.UNREACHABLE);

  /** Routes every lookup once: a refusal is answered at once. */
  public static final MomentaryRefusals NONE = new MomentaryRefusals(Duration.ZERO, Pause.NONE);

  private final long withinNanos;

  private final Pause pause;

  /** Tries again for at most {@code within} after the first refusal; zero never does. */
  public MomentaryRefusals(Duration within, ScheduledExecutorService timer, Executor workers) {
    this(within, Pause.of(PAUSE, timer, workers));
  }

  private MomentaryRefusals(Duration within, Pause pause) {
    this.withinNanos = within.toNanos();
    this.pause = pause;
  }

  /** How long a lookup may be tried again after its first refusal. */
  public Duration within() {
    return Duration.ofNanos(this.withinNanos);
  }

  /** The answer of {@code attempt}, made again while it refuses for a moment. */
  <T> CompletableFuture<Routed<T>> answer(
      CallerContext caller, Supplier<CompletableFuture<Routed<T>>> attempt) {
    CompletableFuture<Routed<T>> first = attempt.get();
    if (!caller.mayRelay()) {
      return first;
    }
    boolean bound = caller.bound().isBound();
    if (this.withinNanos <= 0
        || (first.isDone() && (first.isCompletedExceptionally() || !momentary(first.join())))) {
      return first.thenApply((answer) -> waitable(answer, bound));
    }
    long deadline = System.nanoTime() + this.withinNanos;
    return first.thenCompose((answer) -> again(answer, attempt, deadline, bound));
  }

  /** {@code answer}, a bound read's momentary refusal marked to be asked again every poll. */
  private static <T> Routed<T> waitable(Routed<T> answer, boolean bound) {
    if (!bound || !momentary(answer) || !(answer instanceof Routed.Refused<T> refused)) {
      return answer;
    }
    return new Routed.Refused<>(refused.refusal().waitingOn(Refusal.Behind.polling()));
  }

  private <T> CompletableFuture<Routed<T>> again(
      Routed<T> answer,
      Supplier<CompletableFuture<Routed<T>>> attempt,
      long deadline,
      boolean bound) {
    if (!momentary(answer) || deadline - System.nanoTime() < PAUSE.toNanos()) {
      return CompletableFuture.completedFuture(waitable(answer, bound));
    }
    CompletableFuture<Routed<T>> next = new CompletableFuture<>();
    AtomicBoolean busy = new AtomicBoolean();
    this.pause.then(
        () -> attemptInto(attempt, next),
        () -> {
          busy.set(true);
          next.complete(answer);
        });
    return next.thenCompose(
        (routed) ->
            busy.get()
                ? CompletableFuture.completedFuture(waitable(routed, bound))
                : again(routed, attempt, deadline, bound));
  }

  private static <T> void attemptInto(
      Supplier<CompletableFuture<Routed<T>>> attempt, CompletableFuture<Routed<T>> next) {
    try {
      attempt
          .get()
          .whenComplete(
              (routed, failure) -> {
                if (failure != null) {
                  next.completeExceptionally(failure);
                } else {
                  next.complete(routed);
                }
              });
    } catch (RuntimeException ex) {
      next.completeExceptionally(ex);
    }
  }

  /** Whether {@code answer} refuses only while the instances come and go, for a second. */
  static boolean momentary(Routed<?> answer) {
    if (answer instanceof Routed.Refused<?> refused) {
      Refusal refusal = refused.refusal();
      return refusal.behind() == null
          && MOMENTARY.contains(refusal.reason())
          && withinASecond(refusal.retryAfter());
    }
    if (answer instanceof Routed.Relayed<?> relayed) {
      PeerResponse response = relayed.response();
      String retryAfter = response.header("Retry-After");
      return response.status() == 503
          && retryAfter != null
          && withinASecond(PeerAnswers.retryAfter(retryAfter));
    }
    return false;
  }

  private static boolean withinASecond(Duration retryAfter) {
    return retryAfter.compareTo(Refusal.REBALANCE_RETRY) <= 0;
  }
}
