package dev.matview.query.peer;

import dev.matview.peer.PeerPath;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.Routing;
import dev.matview.topology.ResolvedView;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Asks another instance to route a lookup that this one cannot place, because its Kafka Streams has
 * not started or has not yet seen an owner for every partition: a restarted instance answers from
 * its first request, through the instances it remembers, instead of refusing until it is assigned.
 * The instance asked routes the lookup as a client's, forwarding it at most once more, and never
 * relays it again, without a thread waiting for its answer.
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

  /** The first answer below a 5xx of the other instances, else {@code refusal} with theirs. */
  <T> CompletableFuture<Routed<T>> relay(
      ResolvedView<?, ?, ?> view,
      CallerContext caller,
      Supplier<PeerPath> pathInView,
      Refusal refusal) {
    return new Relay<T>(view, caller, pathInView, refusal).from(0);
  }

  /** One lookup relayed: the other instances asked in turn until one answers. */
  private final class Relay<T> {

    private final ResolvedView<?, ?, ?> view;

    private final CallerContext caller;

    private final Refusal refusal;

    private final List<HostInfo> others;

    private final String pathAndQuery;

    private final Duration timeout;

    private int asked;

    Relay(
        ResolvedView<?, ?, ?> view,
        CallerContext caller,
        Supplier<PeerPath> pathInView,
        Refusal refusal) {
      this.view = view;
      this.caller = caller;
      this.refusal = refusal;
      this.others = List.copyOf(Relays.this.routing.otherInstances());
      this.pathAndQuery =
          caller
              .bound()
              .addTo(
                  pathInView
                      .get()
                      .param("allowStale", caller.allowStale())
                      .param("maxLag", caller.maxLag()))
              .toString();
      this.timeout = caller.bound().waited(Relays.this.peers.timeout());
    }

    /** The first answer below a 5xx of the instances from the {@code next}th on, or the refusal. */
    CompletableFuture<Routed<T>> from(int next) {
      int index = next;
      while (index < this.others.size() && Relays.this.marks.isDown(this.others.get(index))) {
        index++;
      }
      if (index == this.others.size()) {
        return CompletableFuture.completedFuture(refused());
      }
      HostInfo other = this.others.get(index);
      int following = index + 1;
      this.asked++;
      return Relays.this
          .peers
          .<T>relay(this.view.name(), other, this.pathAndQuery, this.caller, this.timeout)
          .thenCompose(
              (answer) -> {
                Relays.this.marks.observed(other, answer);
                return (answer instanceof Routed.Relayed<T> relayed
                        && relayed.response().status() < 500)
                    ? CompletableFuture.completedFuture(answer)
                    : from(following);
              });
    }

    private Routed<T> refused() {
      if (this.asked == 0) {
        return new Routed.Refused<>(this.refusal);
      }
      return new Routed.Refused<>(
          new Refusal(
              this.refusal.reason(),
              this.refusal.view(),
              this.refusal.key(),
              this.refusal.partition(),
              this.refusal.detail()
                  + "; "
                  + (this.asked == 1
                      ? "the other instance asked to route it could not either"
                      : "none of the " + this.asked + " other instances asked to route it could"),
              this.refusal.retryAfter()));
    }
  }
}
