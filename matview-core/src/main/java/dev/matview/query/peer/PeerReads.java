package dev.matview.query.peer;

import dev.matview.peer.PeerPath;
import dev.matview.position.Isolation;
import dev.matview.position.ReadBound;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.StaleReads;
import dev.matview.topology.ResolvedView;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Asks one other instance for a read that this instance forwards, without a thread waiting for its
 * answer: a key lookup travels with the others bound for the same instance, anything else alone; an
 * instance marked down is not asked.
 */
final class PeerReads {

  private final PeerClient peers;

  private final PeerMarks marks;

  private final GatheredKeyLookups keyLookups;

  PeerReads(PeerClient peers, PeerMarks marks, GatheredKeyLookups keyLookups) {
    this.peers = peers;
    this.marks = marks;
    this.keyLookups = keyLookups;
  }

  /**
   * Asks {@code owner}'s instance unless marked down, its answer checked by {@link
   * PeerAnswers#checked}.
   */
  <T> CompletableFuture<Routed<T>> ask(
      Asked<T> asked, PartitionOwner owner, @Nullable StaleReads stale) {
    ResolvedView<?, ?, ?> view = asked.view();
    if (this.marks.isDown(owner.host())) {
      return CompletableFuture.completedFuture(
          new Routed.Refused<>(PeerAnswers.markedDown(view.name(), owner)));
    }
    CallerContext caller = asked.caller();
    ReadBound bound = caller.bound();
    Duration timeout = bound.waited(asked.timeout());
    String key = asked.pathInView().key();
    CompletableFuture<Routed<T>> answer =
        (key != null)
            ? this.keyLookups
                .fetch(view.name(), owner, key, gathered(stale, bound), caller, timeout)
                .thenApply(Routed::passedOn)
            : this.peers.fetch(
                view.name(), owner, boundedPath(asked.pathInView(), bound, stale), caller, timeout);
    return answer.thenApply((answered) -> checked(view, owner, stale, answered));
  }

  private static String boundedPath(
      PeerTarget pathInView, ReadBound bound, @Nullable StaleReads stale) {
    return bound.addTo(withStale(pathInView.get(), stale), pathInView.recordParameter()).toString();
  }

  private <T> Routed<T> checked(
      ResolvedView<?, ?, ?> view,
      PartitionOwner owner,
      @Nullable StaleReads stale,
      Routed<T> answer) {
    this.marks.observed(owner.host(), answer);
    if (answer instanceof Routed.Refused<T>) {
      return answer;
    }
    return PeerAnswers.checked(view.name(), owner, answer, stale != null);
  }

  /** The query gathered lookups share: the lag bound of {@code stale} and the isolation. */
  private static PeerPath gathered(@Nullable StaleReads stale, ReadBound bound) {
    Isolation isolation = bound.isolation();
    return withStale(PeerPath.of(), stale)
        .param(Isolation.PARAMETER, (isolation != null) ? isolation.parameterValue() : null);
  }

  /** {@code path} with the lag bound of {@code stale}, when given, as query parameters. */
  private static PeerPath withStale(PeerPath path, @Nullable StaleReads stale) {
    return (stale != null)
        ? path.param("allowStale", "true").param("maxLag", stale.maxLag())
        : path;
  }
}
