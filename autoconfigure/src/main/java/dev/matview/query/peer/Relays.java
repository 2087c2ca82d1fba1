package dev.matview.query.peer;

import dev.matview.peer.PeerPath;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.Routing;
import dev.matview.topology.ResolvedView;
import java.time.Duration;
import java.util.Collection;
import java.util.function.Supplier;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Asks another instance to route a lookup that this one cannot place, because its Kafka Streams has
 * not started or has not yet seen an owner for every partition: a restarted instance answers from
 * its first request, through the instances it remembers, instead of refusing until it is assigned.
 * The instance asked routes the lookup as a client's, forwarding it at most once more, and never
 * relays it again.
 */
final class Relays {

  private final Routing routing;

  private final PeerClient peers;

  private final PeerMarks marks;

  Relays(Routing routing, PeerClient peers, PeerMarks marks) {
    this.routing = routing;
    this.peers = peers;
    this.marks = marks;
  }

  /** Whether a lookup whose placement was {@code refusal} may be relayed for {@code caller}. */
  static boolean applies(Refusal refusal, CallerContext caller) {
    return caller.mayRelay()
        && (refusal.reason() == Refusal.Reason.NOT_RUNNING
            || refusal.reason() == Refusal.Reason.OWNER_UNKNOWN);
  }

  /**
   * The answer of the first other instance, not marked down, that answers the lookup with less than
   * a 5xx; {@code refusal}, with what the others said, when none does.
   */
  <T> Routed<T> relay(
      ResolvedView<?, ?, ?> view,
      CallerContext caller,
      Supplier<PeerPath> pathInView,
      Refusal refusal) {
    Collection<HostInfo> others = this.routing.otherInstances();
    if (others.isEmpty()) {
      return new Routed.Refused<>(refusal);
    }
    String pathAndQuery =
        caller
            .bound()
            .addTo(
                pathInView
                    .get()
                    .param("allowStale", caller.allowStale())
                    .param("maxLag", caller.maxLag()))
            .toString();
    Duration timeout =
        caller.bound().isBound()
            ? this.peers.timeout().plus(caller.bound().maxWait())
            : this.peers.timeout();
    int asked = 0;
    for (HostInfo other : others) {
      if (this.marks.isDown(other)) {
        continue;
      }
      asked++;
      Routed<T> answer = this.peers.relay(view.name(), other, pathAndQuery, caller, timeout);
      this.marks.observed(other, answer);
      if (answer instanceof Routed.Relayed<T> relayed && relayed.response().status() < 500) {
        return answer;
      }
    }
    if (asked == 0) {
      return new Routed.Refused<>(refusal);
    }
    return new Routed.Refused<>(
        new Refusal(
            refusal.reason(),
            refusal.view(),
            refusal.key(),
            refusal.partition(),
            refusal.detail()
                + "; "
                + (asked == 1
                    ? "the other instance asked to route it could not either"
                    : "none of the " + asked + " other instances asked to route it could"),
            refusal.retryAfter()));
  }
}
