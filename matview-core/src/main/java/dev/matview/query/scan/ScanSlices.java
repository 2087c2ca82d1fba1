package dev.matview.query.scan;

import dev.matview.query.answer.ItemLines;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.Slice;
import dev.matview.query.local.LocalRead;
import dev.matview.query.peer.ActiveReplicaStreams;
import dev.matview.query.peer.Fallbacks;
import dev.matview.query.peer.PeerTarget;
import dev.matview.query.routing.Routing;
import dev.matview.topology.ResolvedView;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.jspecify.annotations.Nullable;

/**
 * Reads one partition's slice of a scan from the replica that can serve it, with the {@link
 * Fallbacks} of a key lookup: the active replica, here or on its instance, then, when the caller
 * allows stale reads, this instance's replica and the standbys on other instances, each within the
 * caller's lag bound, skipping instances marked down.
 */
public final class ScanSlices {

  private final Routing routing;

  private final Fallbacks fallbacks;

  private final PeerSlices slices;

  public ScanSlices(Routing routing, Fallbacks fallbacks, PeerSlices slices) {
    this.routing = routing;
    this.fallbacks = fallbacks;
    this.slices = slices;
  }

  /** Up to {@code limit} items of {@code scan} in {@code owner}'s partition, or why none. */
  public <T> CompletableFuture<Routed<Slice<T>>> read(
      ScanRead<T> scan,
      PartitionOwner owner,
      @Nullable ScanPosition after,
      int limit,
      Duration timeout) {
    ResolvedView<?, ?, ?> view = scan.view();
    PeerTarget path =
        PeerTarget.ofSlice(() -> this.slices.path(scan, owner.partition(), after, limit));
    LocalRead<Slice<T>> read =
        (partition, replica, exact) -> scan.local().read(partition, after, limit, exact);
    return this.fallbacks
        .routePartition(
            view, this.routing.replicasOf(view, owner), scan.caller(), path, read, timeout)
        .thenApply(
            (answer) ->
                (answer instanceof Routed.Relayed<Slice<T>> relayed)
                    ? this.slices.read(view, owner, scan.kind(), relayed.response())
                    : answer);
  }

  /**
   * Every slice of up to {@code limit} lines of {@code scan} in {@code owner}'s partition after
   * {@code after}, streamed by the instance that holds its active replica and read as it arrives,
   * each next byte waited for at most {@code timeout}, when {@link ActiveReplicaStreams} find that
   * the only place to read them; else {@code null}.
   */
  @Nullable PeerSliceStream openStream(
      ScanRead<ItemLines> scan,
      PartitionOwner owner,
      @Nullable ScanPosition after,
      int limit,
      Duration timeout) {
    PeerSliceStream stream = new PeerSliceStream(this.slices, scan.view().name());
    Future<Void> exchange =
        this.fallbacks
            .streams()
            .open(
                this.routing.replicasOf(scan.view(), owner),
                scan.caller(),
                () -> this.slices.streamPath(scan, owner.partition(), after, limit).toString(),
                SliceFrames.TYPE,
                timeout,
                stream);
    if (exchange == null) {
      return null;
    }
    stream.exchange(exchange);
    return stream;
  }

  /** Reads one partition's slice on this instance. */
  @FunctionalInterface
  public interface LocalSlice<T> {

    /**
     * Up to {@code limit} items of {@code partition} after {@code after}; only from a replica Kafka
     * Streams runs as active when {@code exact}, else from this instance's replica whatever its
     * state.
     */
    Slice<T> read(int partition, @Nullable ScanPosition after, int limit, boolean exact);
  }
}
