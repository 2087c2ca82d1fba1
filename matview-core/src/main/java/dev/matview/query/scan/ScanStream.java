package dev.matview.query.scan;

import dev.matview.observation.MatviewObservations;
import dev.matview.query.answer.ItemLines;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.Slice;
import dev.matview.topology.ResolvedView;
import io.micrometer.observation.Observation;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * A scan of a whole range as a stream: one partition slice after another, each read where the last
 * one ended, so that only one slice is at hand at a time, and a cursor that resumes exactly after
 * the last slice read. The slices of a partition whose active replica is on another instance come
 * in one stream from it ({@link SliceFrames}) when it can be opened, else one request a slice.
 */
public final class ScanStream implements AutoCloseable {

  private final ScanRead<ItemLines> scan;

  private final ResolvedView<?, ?, ?> view;

  private final List<PartitionOwner> owners;

  private final ScanSlices slices;

  private final ScanCursors cursors;

  private final Duration timeout;

  private final int sliceSize;

  private @Nullable ScanCursor next;

  /** The partition whose slices were last asked of another instance as a stream, or -1. */
  private int streamedPartition = -1;

  private @Nullable PeerSliceStream peerStream;

  /** The slice read from the stream and not yet {@linkplain #advance taken}. */
  private volatile @Nullable Slice<ItemLines> streamed;

  private volatile boolean closed;

  /** The scan's observation, stopped when it closes. */
  private volatile Observation observation = Observation.NOOP;

  /** A stream of {@code scan} from {@code start} through the view's last partition. */
  public ScanStream(
      ScanRead<ItemLines> scan,
      List<PartitionOwner> owners,
      ScanSlices slices,
      ScanCursors cursors,
      Duration timeout,
      int sliceSize,
      ScanCursor start) {
    this.scan = scan;
    this.view = scan.view();
    this.owners = owners;
    this.slices = slices;
    this.cursors = cursors;
    this.timeout = timeout;
    this.sliceSize = sliceSize;
    this.next = start;
  }

  /** This stream, observed by {@code observation} until it closes. */
  public ScanStream observedBy(Observation observation) {
    this.observation = observation;
    return this;
  }

  /** Whether every slice has been read. */
  public boolean ended() {
    return this.next == null;
  }

  /**
   * The next slice, read where the last one ended; asked again until it is {@linkplain #advance
   * taken}, it reads the same place again. A slice of another instance's stream completes the
   * future on the peers' client's I/O thread, as does another instance's answer.
   */
  public CompletableFuture<Routed<Slice<ItemLines>>> read() {
    ScanCursor at = at();
    Slice<ItemLines> taken = this.streamed;
    if (taken != null) {
      return CompletableFuture.completedFuture(new Routed.Local<>(taken));
    }
    PeerSliceStream open = streamAt(at);
    if (open == null) {
      return readSlice(at);
    }
    return open.next()
        .thenCompose(
            (slice) -> {
              if (slice == null) {
                closeStream();
                return this.closed ? CompletableFuture.completedFuture(closed(at)) : readSlice(at);
              }
              this.streamed = slice;
              return CompletableFuture.completedFuture(new Routed.Local<>(slice));
            });
  }

  private CompletableFuture<Routed<Slice<ItemLines>>> readSlice(ScanCursor at) {
    return this.slices.read(
        this.scan, this.owners.get(at.partition()), at.after(), this.sliceSize, this.timeout);
  }

  /** Moves past {@code slice}, the last one {@linkplain #read read}. */
  public void advance(Slice<ItemLines> slice) {
    ScanCursor at = at();
    this.streamed = null;
    this.next = ScanCursors.next(at, at.partition(), this.owners.size(), slice);
  }

  /** Ends the scan: closes the stream of another instance's slices, if one is open. */
  @Override
  public void close() {
    boolean first;
    synchronized (this) {
      first = !this.closed;
      this.closed = true;
    }
    closeStream();
    if (first) {
      MatviewObservations.stop(this.observation, ended() ? "complete" : "incomplete");
    }
  }

  private void closeStream() {
    PeerSliceStream open;
    synchronized (this) {
      open = this.peerStream;
      this.peerStream = null;
    }
    this.streamed = null;
    if (open != null) {
      open.close();
    }
  }

  /**
   * The stream of another instance's slices at {@code at}, opened once a partition; {@code null}
   * when the partition is not read that way or its stream stopped.
   */
  private synchronized @Nullable PeerSliceStream streamAt(ScanCursor at) {
    if (this.streamedPartition != at.partition()) {
      closeStream();
      this.streamedPartition = at.partition();
      this.peerStream =
          this.slices.openStream(
              this.scan, this.owners.get(at.partition()), at.after(), this.sliceSize, this.timeout);
    }
    return this.peerStream;
  }

  /** The cursor that resumes the scan where the next slice starts, as a page's cursor does. */
  public String cursor() {
    return this.cursors.encode(this.view, at());
  }

  private Routed<Slice<ItemLines>> closed(ScanCursor at) {
    return new Routed.Refused<>(
        new Refusal(
            Refusal.Reason.UNAVAILABLE,
            this.view.name(),
            null,
            at.partition(),
            "The scan was closed",
            Refusal.REBALANCE_RETRY));
  }

  private ScanCursor at() {
    ScanCursor at = this.next;
    if (at == null) {
      throw new IllegalStateException("The scan of view '" + this.view.name() + "' has ended");
    }
    return at;
  }
}
