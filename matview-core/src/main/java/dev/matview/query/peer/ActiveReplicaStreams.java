package dev.matview.query.peer;

import dev.matview.peer.http.BodyListener;
import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.LookupGate;
import dev.matview.query.routing.Routing;
import dev.matview.query.routing.StaleReads;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Streams of a partition's slices asked of the instance of its active replica, when that replica is
 * the only one a read may go to, so that no {@link Fallbacks} are needed.
 */
public final class ActiveReplicaStreams {

  private static final Log logger = LogFactory.getLog(ActiveReplicaStreams.class);

  private final Routing routing;

  private final PeerClient peers;

  private final StaleReads staleReads;

  private final PeerMarks marks;

  private final LookupGate gate;

  ActiveReplicaStreams(
      Routing routing, PeerClient peers, StaleReads staleReads, PeerMarks marks, LookupGate gate) {
    this.routing = routing;
    this.peers = peers;
    this.staleReads = staleReads;
    this.marks = marks;
    this.gate = gate;
  }

  /**
   * Asks the instance of {@code replicas}' active replica for a stream of slices, handed to {@code
   * listener} as it arrives, when that replica is the only one a read may go to (on another
   * instance not marked down, for a request not forwarded, bound or stale); else, or when the
   * stream cannot be asked for, {@code null}, and the read goes as {@link Fallbacks#routePartition}
   * routes it.
   */
  public @Nullable Future<Void> open(
      KeyReplicas replicas,
      CallerContext caller,
      Supplier<String> pathAndQuery,
      String type,
      Duration timeout,
      BodyListener listener) {
    PartitionOwner active = replicas.active();
    if (this.gate.isClosed()
        || this.routing.isLocal(active)
        || caller.forwarded()
        || caller.bound().isBound()
        || this.staleReads.forCaller(caller).enabled()
        || this.marks.isDown(active.host())) {
      return null;
    }
    try {
      return this.peers.stream(active, pathAndQuery.get(), type, caller, timeout, listener);
    } catch (RuntimeException ex) {
      logger.debug(
          "A stream of slices could not be asked of " + active.describe() + ": " + ex.getMessage());
      return null;
    }
  }
}
