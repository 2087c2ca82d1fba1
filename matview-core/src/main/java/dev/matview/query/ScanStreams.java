package dev.matview.query;

import dev.matview.query.answer.ItemLines;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.local.LocalStores;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.Routing;
import dev.matview.query.scan.PeerSlices;
import dev.matview.query.scan.ScanCursor;
import dev.matview.query.scan.ScanCursors;
import dev.matview.query.scan.ScanLines;
import dev.matview.query.scan.ScanRead;
import dev.matview.query.scan.ScanSlices;
import dev.matview.query.scan.ScanStream;
import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewWindow;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Starts streamed scans of all keys, or all windows, of a view: at its start, at a cursor, or right
 * after the last item a client received ({@code afterKey}, and {@code afterStart} for windows).
 */
public final class ScanStreams {

  private final ViewQueryService views;

  private final Routing routing;

  private final LocalStores localStores;

  private final ScanBounds bounds;

  private final ScanCursors cursors;

  private final ScanStarts starts;

  private final ScanSlices slices;

  private final ScanLines lines;

  private final Duration timeout;

  private final int sliceSize;

  private final Clock clock;

  ScanStreams(
      ViewQueryService views,
      Routing routing,
      LocalStores localStores,
      ScanBounds bounds,
      ScanCursors cursors,
      ScanSlices slices,
      ScanLines lines,
      Duration timeout,
      int sliceSize,
      Clock clock) {
    this.views = views;
    this.routing = routing;
    this.localStores = localStores;
    this.bounds = bounds;
    this.cursors = cursors;
    this.starts = new ScanStarts(routing, bounds, cursors);
    this.slices = slices;
    this.lines = lines;
    this.timeout = timeout;
    this.sliceSize = sliceSize;
    this.clock = clock;
  }

  /** A stream of a table's keys in [from, to], from the start, the cursor or after afterKey. */
  public ScanStream keys(
      String viewName,
      @Nullable String from,
      @Nullable String to,
      @Nullable String cursor,
      @Nullable String afterKey,
      CallerContext caller) {
    ResolvedView<?, ?, ?> view =
        this.views.served().table(viewName, "view", ViewScanService.SCAN_WINDOWS);
    return this.views
        .observed()
        .scan(viewName, "keys", caller, (on) -> keysOf(view, from, to, cursor, afterKey, on));
  }

  private <K> ScanStream keysOf(
      ResolvedView<K, ?, ?> view,
      @Nullable String from,
      @Nullable String to,
      @Nullable String cursor,
      @Nullable String afterKey,
      CallerContext caller) {
    K fromKey = this.bounds.key(view, "from", from);
    K toKey = this.bounds.key(view, "to", to);
    ScanBounds.requireOrdered(view, from, fromKey, to, toKey);
    List<PartitionOwner> owners = this.routing.owners(view);
    ScanCursor start =
        this.starts.keys(view, owners, "keys:" + from + ":" + to, cursor, afterKey, fromKey, toKey);
    boolean committed = this.localStores.isolation().committed(view, caller.bound());
    return stream(
        view,
        owners,
        PeerSlices.KEY_LINES,
        from,
        to,
        (partition, position, limit, exact) ->
            this.localStores.keys(
                view, partition, fromKey, toKey, position, limit, exact, committed),
        caller,
        start);
  }

  /**
   * A stream of the windows starting in [from, to], from the start, the cursor or after a window.
   */
  public ScanStream windows(
      String viewName,
      @Nullable Instant from,
      @Nullable Instant to,
      @Nullable String cursor,
      @Nullable String afterKey,
      @Nullable Instant afterStart,
      CallerContext caller) {
    ResolvedView<?, ?, ?> view = this.views.served().view(viewName);
    return this.views
        .observed()
        .scan(
            viewName,
            "windows",
            caller,
            (on) -> windowsOf(view, from, to, cursor, afterKey, afterStart, on));
  }

  private <K> ScanStream windowsOf(
      ResolvedView<K, ?, ?> view,
      @Nullable Instant from,
      @Nullable Instant to,
      @Nullable String cursor,
      @Nullable String afterKey,
      @Nullable Instant afterStart,
      CallerContext caller) {
    ViewWindow window = ServedViews.windowOf(view, ViewScanService.SCAN_KEYS);
    TimeRange range = TimeRange.of(view.name(), window, from, to, this.clock);
    List<PartitionOwner> owners = this.routing.owners(view);
    ScanCursor start =
        this.starts.windows(
            view,
            owners,
            "windows:" + from + ":" + to,
            cursor,
            afterKey,
            afterStart,
            range.from().toEpochMilli(),
            range.to().toEpochMilli());
    Instant startTime = Instant.ofEpochMilli(start.rangeFrom());
    Instant stopTime = Instant.ofEpochMilli(start.rangeTo());
    return stream(
        view,
        owners,
        PeerSlices.WINDOW_LINES,
        startTime,
        stopTime,
        (partition, position, limit, exact) ->
            this.localStores.windowItems(
                view, window, partition, startTime, stopTime, position, limit, exact),
        caller,
        start);
  }

  /** A stream of {@code kind} in [from, to] from {@code start}, read here by {@code items}. */
  private <T> ScanStream stream(
      ResolvedView<?, ?, ?> view,
      List<PartitionOwner> owners,
      PeerSlices.Kind<ItemLines> kind,
      @Nullable Object from,
      @Nullable Object to,
      ScanSlices.LocalSlice<T> items,
      CallerContext caller,
      ScanCursor start) {
    ScanSlices.LocalSlice<ItemLines> lines =
        (partition, position, limit, exact) ->
            this.lines.of(items.read(partition, position, limit, exact));
    return new ScanStream(
        new ScanRead<>(view, kind, from, to, lines, caller),
        owners,
        this.slices,
        this.cursors,
        caller.bound().waited(this.timeout),
        this.sliceSize,
        start);
  }
}
