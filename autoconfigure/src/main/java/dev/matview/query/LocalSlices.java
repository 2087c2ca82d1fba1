package dev.matview.query;

import dev.matview.query.answer.Futures;
import dev.matview.query.answer.InvalidQueryException;
import dev.matview.query.answer.KeyItem;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.Slice;
import dev.matview.query.answer.ViewUnavailableException;
import dev.matview.query.answer.WindowItem;
import dev.matview.query.local.LocalStores;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.Routing;
import dev.matview.query.scan.PeerSlices;
import dev.matview.query.scan.ScanCursors;
import dev.matview.query.scan.ScanSlices;
import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The serving end of a scan across instances: this instance's slice of one partition, for the
 * instance that coordinates the scan, read from its local replica and written in the peer wire
 * format of {@link PeerSlices}.
 */
public final class LocalSlices {

  private final ViewQueryService views;

  private final Routing routing;

  private final LocalStores localStores;

  private final ScanBounds bounds;

  private final ScanCursors scanCursors;

  private final PeerSlices slices;

  private final ScanSlices scanSlices;

  LocalSlices(
      ViewQueryService views,
      Routing routing,
      LocalStores localStores,
      ScanBounds bounds,
      ScanCursors scanCursors,
      PeerSlices slices,
      ScanSlices scanSlices) {
    this.views = views;
    this.routing = routing;
    this.localStores = localStores;
    this.bounds = bounds;
    this.scanCursors = scanCursors;
    this.slices = slices;
    this.scanSlices = scanSlices;
  }

  /**
   * This instance's slice of one partition's keys, from its active replica, or from any replica it
   * holds within the lag bound when {@code caller} allows stale reads: a {@link
   * PeerSlices.SliceBody} of JSON items, or with {@code asLines} the lines of a streamed scan.
   */
  public Routed<?> keys(
      String viewName,
      int partition,
      @Nullable String from,
      @Nullable String to,
      @Nullable String after,
      int limit,
      CallerContext caller,
      boolean asLines) {
    try {
      ResolvedView<?, ?, ?> view =
          this.views.served().table(viewName, "view", ViewScanService.SCAN_WINDOWS);
      return body(
          localKeySliceOf(view, partition, from, to, after, limit, caller),
          (slice) ->
              asLines
                  ? this.slices.linesBody(viewName, slice)
                  : this.slices.keysBody(viewName, slice));
    } catch (ViewUnavailableException ex) {
      return new Routed.Refused<>(Refusal.of(ex));
    }
  }

  private <K> Routed<Slice<KeyItem>> localKeySliceOf(
      ResolvedView<K, ?, ?> view,
      int partition,
      @Nullable String from,
      @Nullable String to,
      @Nullable String after,
      int limit,
      CallerContext caller) {
    K fromKey = this.bounds.key(view, "from", from);
    K toKey = this.bounds.key(view, "to", to);
    return here(
        view,
        partition,
        PeerSlices.KEYS,
        after,
        limit,
        caller,
        (slicePartition, position, sliceLimit, exact) ->
            this.localStores.keys(
                view, slicePartition, fromKey, toKey, position, sliceLimit, exact));
  }

  /**
   * This instance's slice of one partition's windows, from its active replica, or from any replica
   * it holds within the lag bound when {@code caller} allows stale reads: a {@link
   * PeerSlices.SliceBody} of windows whose bounds are epoch milliseconds, or with {@code asLines}
   * the lines of a streamed scan.
   */
  public Routed<?> windows(
      String viewName,
      int partition,
      Instant from,
      Instant to,
      @Nullable String after,
      int limit,
      CallerContext caller,
      boolean asLines) {
    try {
      return body(
          windowSliceOf(viewName, partition, from, to, after, limit, caller),
          (slice) ->
              asLines
                  ? this.slices.linesBody(viewName, slice)
                  : this.slices.windowsBody(viewName, slice));
    } catch (ViewUnavailableException ex) {
      return new Routed.Refused<>(Refusal.of(ex));
    }
  }

  private Routed<Slice<WindowItem>> windowSliceOf(
      String viewName,
      int partition,
      Instant from,
      Instant to,
      @Nullable String after,
      int limit,
      CallerContext caller) {
    ResolvedView<?, ?, ?> view = this.views.served().view(viewName);
    ViewWindow window = ServedViews.windowOf(view, ViewScanService.SCAN_KEYS);
    TimeRange range = TimeRange.exactly(viewName, from, to);
    return here(
        view,
        partition,
        PeerSlices.WINDOWS,
        after,
        limit,
        caller,
        (slicePartition, position, sliceLimit, exact) ->
            this.localStores.windowItems(
                view,
                window,
                slicePartition,
                range.from(),
                range.to(),
                position,
                sliceLimit,
                exact));
  }

  /** The body of a slice read here, or why it could not be read. */
  private static <T> Routed<?> body(Routed<Slice<T>> read, Function<Slice<T>, ?> body) {
    if (read instanceof Routed.Local<Slice<T>> here) {
      return new Routed.Local<>(body.apply(here.answer()), here.position());
    }
    return Routed.passedOn(read);
  }

  /**
   * The slice {@code local} reads of {@code partition}, which must be one of the view's, for a
   * request another instance forwarded: it is never sent on, so no peer timeout applies.
   */
  private <T> Routed<Slice<T>> here(
      ResolvedView<?, ?, ?> view,
      int partition,
      PeerSlices.Kind<T> kind,
      @Nullable String after,
      int limit,
      CallerContext caller,
      ScanSlices.LocalSlice<T> local) {
    List<PartitionOwner> owners = this.routing.owners(view);
    if (partition < 0 || partition >= owners.size()) {
      throw new InvalidQueryException(
          view.name(),
          "partition",
          "View '" + view.name() + "' has partitions 0 to " + (owners.size() - 1));
    }
    CallerContext forwarded =
        new CallerContext(
            true,
            caller.authorization(),
            caller.allowStale(),
            caller.maxLag(),
            caller.relayed(),
            caller.bound());
    return Futures.now(
        this.scanSlices.read(
            view,
            owners.get(partition),
            kind,
            (path) -> {},
            this.scanCursors.position(view, after),
            this.bounds.limit(view, limit),
            forwarded,
            Duration.ZERO,
            local,
            false));
  }
}
