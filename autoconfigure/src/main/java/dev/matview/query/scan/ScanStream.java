package dev.matview.query.scan;

import dev.matview.peer.PeerPath;
import dev.matview.query.answer.ItemLines;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.Slice;
import dev.matview.query.routing.CallerContext;
import dev.matview.topology.ResolvedView;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A scan of a whole range as a stream: one partition slice after another, each read where the last
 * one ended, so that only one slice is at hand at a time, and a cursor that resumes exactly after
 * the last slice read.
 */
public final class ScanStream {

  private final ResolvedView<?, ?, ?> view;

  private final List<PartitionOwner> owners;

  private final ScanSlices slices;

  private final ScanCursors cursors;

  private final PeerSlices.Kind<ItemLines> kind;

  private final Consumer<PeerPath> query;

  private final ScanSlices.LocalSlice<ItemLines> local;

  private final CallerContext caller;

  private final Duration timeout;

  private final int sliceSize;

  private @Nullable ScanCursor next;

  /**
   * A stream from {@code start} through the view's last partition, each slice of at most {@code
   * sliceSize} items read here by {@code local} or asked of its owner with {@code query} for at
   * most {@code timeout}.
   */
  public ScanStream(
      ResolvedView<?, ?, ?> view,
      List<PartitionOwner> owners,
      ScanSlices slices,
      ScanCursors cursors,
      PeerSlices.Kind<ItemLines> kind,
      Consumer<PeerPath> query,
      ScanSlices.LocalSlice<ItemLines> local,
      CallerContext caller,
      Duration timeout,
      int sliceSize,
      ScanCursor start) {
    this.view = view;
    this.owners = owners;
    this.slices = slices;
    this.cursors = cursors;
    this.kind = kind;
    this.query = query;
    this.local = local;
    this.caller = caller;
    this.timeout = timeout;
    this.sliceSize = sliceSize;
    this.next = start;
  }

  /** Whether every slice has been read. */
  public boolean ended() {
    return this.next == null;
  }

  /**
   * The next slice, read where the last one ended; asked again until it is {@linkplain #advance
   * taken}, it reads the same place again.
   */
  public CompletableFuture<Routed<Slice<ItemLines>>> read() {
    ScanCursor at = at();
    return this.slices.read(
        this.view,
        this.owners.get(at.partition()),
        this.kind,
        this.query,
        at.after(),
        this.sliceSize,
        this.caller,
        this.timeout,
        this.local,
        true);
  }

  /** Moves past {@code slice}, the last one {@linkplain #read read}. */
  public void advance(Slice<ItemLines> slice) {
    ScanCursor at = at();
    this.next = ScanCursors.next(at, at.partition(), this.owners.size(), slice);
  }

  /** The cursor that resumes the scan where the next slice starts, as a page's cursor does. */
  public String cursor() {
    return this.cursors.encode(this.view, at());
  }

  private ScanCursor at() {
    ScanCursor at = this.next;
    if (at == null) {
      throw new IllegalStateException("The scan of view '" + this.view.name() + "' has ended");
    }
    return at;
  }
}
