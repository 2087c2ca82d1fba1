package dev.matview.query;

import dev.matview.position.ReadBound;
import dev.matview.query.answer.Futures;
import dev.matview.query.answer.InvalidQueryException;
import dev.matview.query.answer.KeyItem;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.Slice;
import dev.matview.query.answer.ViewUnavailableException;
import dev.matview.query.answer.WindowItem;
import dev.matview.query.local.LocalStores;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.Routing;
import dev.matview.query.scan.PeerSlices;
import dev.matview.query.scan.ScanCursors;
import dev.matview.query.scan.ScanRead;
import dev.matview.query.scan.ScanSlices;
import dev.matview.query.scan.SliceForm;
import dev.matview.query.scan.SliceFrames;
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
   * This instance's slice of one partition's keys in {@code form}, for the instance coordinating a
   * scan.
   */
  public Routed<?> keys(
      String viewName,
      int partition,
      @Nullable String from,
      @Nullable String to,
      @Nullable String after,
      int limit,
      CallerContext caller,
      SliceForm form) {
    try {
      ResolvedView<?, ?, ?> view =
          this.views.served().table(viewName, "view", ViewScanService.SCAN_WINDOWS);
      ScanRead<KeyItem> scan =
          new ScanRead<>(
              view,
              PeerSlices.KEYS,
              null,
              null,
              keyReader(view, from, to, caller.bound()),
              forwarded(caller));
      return inForm(
          scan, partition, after, limit, form, (slice) -> this.slices.keysBody(viewName, slice));
    } catch (ViewUnavailableException ex) {
      return new Routed.Refused<>(Refusal.of(ex));
    }
  }

  private <K> ScanSlices.LocalSlice<KeyItem> keyReader(
      ResolvedView<K, ?, ?> view, @Nullable String from, @Nullable String to, ReadBound bound) {
    K fromKey = this.bounds.key(view, "from", from);
    K toKey = this.bounds.key(view, "to", to);
    boolean committed = this.localStores.isolation().committed(view, bound);
    return (partition, position, limit, exact) ->
        this.localStores.keys(view, partition, fromKey, toKey, position, limit, exact, committed);
  }

  /**
   * This instance's slice of one partition's windows in {@code form}, their bounds epoch
   * milliseconds.
   */
  public Routed<?> windows(
      String viewName,
      int partition,
      Instant from,
      Instant to,
      @Nullable String after,
      int limit,
      CallerContext caller,
      SliceForm form) {
    try {
      ResolvedView<?, ?, ?> view = this.views.served().view(viewName);
      ViewWindow window = ServedViews.windowOf(view, ViewScanService.SCAN_KEYS);
      this.localStores.isolation().committed(view, caller.bound());
      TimeRange range = TimeRange.exactly(viewName, from, to);
      ScanSlices.LocalSlice<WindowItem> local =
          (slicePartition, position, sliceLimit, exact) ->
              this.localStores.windowItems(
                  view,
                  window,
                  slicePartition,
                  range.from(),
                  range.to(),
                  position,
                  sliceLimit,
                  exact);
      return inForm(
          new ScanRead<>(view, PeerSlices.WINDOWS, null, null, local, forwarded(caller)),
          partition,
          after,
          limit,
          form,
          (slice) -> this.slices.windowsBody(viewName, slice));
    } catch (ViewUnavailableException ex) {
      return new Routed.Refused<>(Refusal.of(ex));
    }
  }

  /** The slice {@code scan} reads after the position token {@code after}, in {@code form}. */
  private <T> Routed<?> inForm(
      ScanRead<T> scan,
      int partition,
      @Nullable String after,
      int limit,
      SliceForm form,
      Function<Slice<T>, ?> json) {
    String view = scan.view().name();
    Routed<Slice<T>> first =
        here(scan, partition, this.scanCursors.position(scan.view(), after), limit);
    return switch (form) {
      case JSON -> body(first, json);
      case LINES -> body(first, (slice) -> this.slices.linesBody(view, slice));
      case STREAM ->
          body(
              first,
              (slice) ->
                  new SliceFrames<>(
                      slice,
                      (position) -> here(scan, partition, position, limit),
                      (read) -> this.slices.linesBody(view, read)));
    };
  }

  /** The body of a slice read here, or why it could not be read. */
  private static <T> Routed<?> body(Routed<Slice<T>> read, Function<Slice<T>, ?> body) {
    if (read instanceof Routed.Local<Slice<T>> here) {
      return new Routed.Local<>(body.apply(here.answer()), here.position());
    }
    return Routed.passedOn(read);
  }

  /** The slice {@code scan} reads here of {@code partition}, never sent on, so with no timeout. */
  private <T> Routed<Slice<T>> here(
      ScanRead<T> scan, int partition, @Nullable ScanPosition after, int limit) {
    ResolvedView<?, ?, ?> view = scan.view();
    List<PartitionOwner> owners = this.routing.owners(view);
    if (partition < 0 || partition >= owners.size()) {
      throw new InvalidQueryException(
          view.name(),
          "partition",
          "View '" + view.name() + "' has partitions 0 to " + (owners.size() - 1));
    }
    return Futures.now(
        this.scanSlices.read(
            scan, owners.get(partition), after, this.bounds.limit(view, limit), Duration.ZERO));
  }

  /** {@code caller} as a request another instance forwarded, which is answered here only. */
  private static CallerContext forwarded(CallerContext caller) {
    return new CallerContext(
        true,
        caller.authorization(),
        caller.allowStale(),
        caller.maxLag(),
        caller.relayed(),
        caller.bound(),
        caller.observation());
  }
}
