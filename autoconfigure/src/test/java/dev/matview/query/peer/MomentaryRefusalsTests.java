package dev.matview.query.peer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.execution.MatviewExecutors;
import dev.matview.peer.PeerResponse;
import dev.matview.position.InputRecord;
import dev.matview.position.ReadBound;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A lookup that every replica refuses for a moment is routed again after a pause, until it is
 * answered or the time allowed is over; any other answer, and any lookup another instance asked
 * for, is passed on as it came.
 */
class MomentaryRefusalsTests {

  private final MatviewExecutors executors = new MatviewExecutors();

  private final MomentaryRefusals retries =
      new MomentaryRefusals(
          Duration.ofSeconds(1), this.executors.timer(), this.executors.workers());

  @AfterEach
  void stop() {
    this.executors.close();
  }

  @Test
  void routesAgainWhileTheRefusalIsMomentaryAndPassesOnTheFirstAnswer() throws Exception {
    Attempts attempts =
        new Attempts(refused(Refusal.Reason.OWNER_UNKNOWN), refused(Refusal.Reason.UNAVAILABLE));

    CompletableFuture<Routed<String>> answer =
        this.retries.answer(CallerContext.direct(), attempts);

    assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo(Attempts.ANSWER);
    assertThat(attempts.made()).isEqualTo(3);
  }

  @Test
  void answersTheLastRefusalOnceTheTimeAllowedIsOver() throws Exception {
    Attempts attempts = new Attempts(List.of(), refused(Refusal.Reason.UNREACHABLE));

    Routed<String> answer =
        this.retries.answer(CallerContext.direct(), attempts).get(10, TimeUnit.SECONDS);

    assertThat(answer).isInstanceOf(Routed.Refused.class);
    assertThat(attempts.made()).isBetween(2, 5);
  }

  @Test
  void marksTheLastMomentaryRefusalOfAReadBoundToAPositionToBeAskedAgainWithinItsOwnWait()
      throws Exception {
    CallerContext bound =
        CallerContext.direct()
            .withBound(
                new ReadBound(
                    null, null, List.of(InputRecord.parse("t:0:5")), Duration.ofSeconds(30)));
    Routed<String> unbound =
        this.retries
            .answer(
                CallerContext.direct(),
                new Attempts(List.of(), refused(Refusal.Reason.UNAVAILABLE)))
            .get(10, TimeUnit.SECONDS);
    Routed<String> waiting =
        this.retries
            .answer(bound, new Attempts(List.of(), refused(Refusal.Reason.OWNER_UNKNOWN)))
            .get(10, TimeUnit.SECONDS);

    assertThat(((Routed.Refused<String>) unbound).refusal().behind()).isNull();
    Refusal refusal = ((Routed.Refused<String>) waiting).refusal();
    assertThat(refusal.reason()).isEqualTo(Refusal.Reason.OWNER_UNKNOWN);
    assertThat(refusal.behind()).isNotNull();
    assertThat(refusal.behind().poll()).isTrue();
  }

  @Test
  void answersAtOnceARefusalThatIsNotMomentary() {
    Routed<String> failed = refused(Refusal.Reason.FAILED);
    Routed<String> restoring =
        new Routed.Refused<>(
            new Refusal(
                Refusal.Reason.UNAVAILABLE, "v", "k", 0, "restoring", Duration.ofSeconds(30)));
    Routed<String> shuttingDown = refused(Refusal.Reason.SHUTTING_DOWN);
    for (Routed<String> refusal : List.of(failed, restoring, shuttingDown)) {
      Attempts attempts = new Attempts(List.of(refusal), refusal);

      CompletableFuture<Routed<String>> answer =
          this.retries.answer(CallerContext.direct(), attempts);

      assertThat(answer).isCompletedWithValue(refusal);
      assertThat(attempts.made()).isEqualTo(1);
    }
  }

  @Test
  void leavesTheRetryToTheInstanceThatForwardedOrRelayedTheLookup() {
    Routed<String> refusal = refused(Refusal.Reason.OWNER_UNKNOWN);
    for (CallerContext caller :
        List.of(new CallerContext(true, null), new CallerContext(false, null, null, null, true))) {
      Attempts attempts = new Attempts(List.of(refusal), refusal);

      assertThat(this.retries.answer(caller, attempts)).isCompletedWithValue(refusal);
      assertThat(attempts.made()).isEqualTo(1);
    }
  }

  @Test
  void neverRoutesAgainWhenNoTimeIsAllowed() {
    Routed<String> refusal = refused(Refusal.Reason.OWNER_UNKNOWN);
    Attempts attempts = new Attempts(List.of(refusal), refusal);

    assertThat(MomentaryRefusals.NONE.answer(CallerContext.direct(), attempts))
        .isCompletedWithValue(refusal);
    assertThat(attempts.made()).isEqualTo(1);
  }

  @Test
  void takesAnotherInstances503AsMomentaryOnlyWhenItAsksForARetryWithinASecond() {
    assertThat(MomentaryRefusals.momentary(relayed(503, "1"))).isTrue();
    assertThat(MomentaryRefusals.momentary(relayed(503, "30"))).isFalse();
    assertThat(MomentaryRefusals.momentary(relayed(500, "1"))).isFalse();
    assertThat(MomentaryRefusals.momentary(relayed(200, null))).isFalse();
    assertThat(MomentaryRefusals.momentary(new Routed.Local<>("value", null))).isFalse();
  }

  private static Routed<String> refused(Refusal.Reason reason) {
    return new Routed.Refused<>(
        new Refusal(reason, "v", "k", 0, "refused", Refusal.REBALANCE_RETRY));
  }

  private static Routed<String> relayed(int status, String retryAfter) {
    Map<String, List<String>> headers =
        (retryAfter != null) ? Map.of("Retry-After", List.of(retryAfter)) : Map.of();
    return new Routed.Relayed<>(new PeerResponse(status, headers, new byte[0]));
  }

  /** Answers with each of the refusals in turn, then with {@link #ANSWER} or the last refusal. */
  private static final class Attempts implements Supplier<CompletableFuture<Routed<String>>> {

    static final Routed<String> ANSWER = new Routed.Local<>("value", null);

    private final List<Routed<String>> first;

    private final Routed<String> then;

    private final AtomicInteger made = new AtomicInteger();

    @SafeVarargs
    Attempts(Routed<String>... refusals) {
      this(List.of(refusals), ANSWER);
    }

    Attempts(List<Routed<String>> first, Routed<String> then) {
      this.first = first;
      this.then = then;
    }

    @Override
    public CompletableFuture<Routed<String>> get() {
      int index = this.made.getAndIncrement();
      return CompletableFuture.completedFuture(
          index < this.first.size() ? this.first.get(index) : this.then);
    }

    int made() {
      return this.made.get();
    }
  }
}
