package dev.matview.query;

import dev.matview.position.PositionTokens;
import dev.matview.query.answer.KeyItem;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.ScanPage;
import dev.matview.query.answer.WindowItem;
import dev.matview.query.local.LocalStores;
import dev.matview.query.peer.PeerClient;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.Routing;
import dev.matview.query.scan.CursorCodec;
import dev.matview.query.scan.PeerSlices;
import dev.matview.query.scan.ScanCursor;
import dev.matview.query.scan.ScanCursors;
import dev.matview.query.scan.ScanLines;
import dev.matview.query.scan.ScanRead;
import dev.matview.query.scan.ScanSlices;
import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewWindow;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ObjectMapper;

/**
 * Scans all keys, or all windows, of a view across every partition on every instance, a page at a
 * time: it reads what a page asks for (key bounds or a time range, a cursor) and has the {@link
 * ScanPages} read it.
 */
public final class ViewScanService {

  /** What to do instead when a table's windows are scanned. */
  static final String SCAN_KEYS = "scan its keys at .../keys";

  /** What to do instead when a windowed view's keys are scanned. */
  static final String SCAN_WINDOWS = "scan its windows at .../windows";

  /** The key value of a scan read a page at a time. */
  private final ViewQueryService views;

  private final Routing routing;

  private final LocalStores localStores;

  private final ScanBounds bounds;

  private final ScanCursors scanCursors;

  private final ScanPages pages;

  private final Clock clock;

  private final int maxPageSize;

  private final LocalSlices localSlices;

  private final ScanStreams streams;

  /** A scan service of pages of at most {@code maxPageSize} items, read with {@code tokens}. */
  public ViewScanService(
      ViewQueryService views,
      Routing routing,
      LocalStores localStores,
      PeerClient peers,
      KeyParser keyParser,
      CursorCodec cursors,
      ObjectMapper mapper,
      Clock clock,
      int maxPageSize,
      @Nullable PositionTokens tokens) {
    this.views = views;
    this.routing = routing;
    this.localStores = localStores;
    this.bounds = new ScanBounds(keyParser, maxPageSize);
    this.scanCursors = new ScanCursors(cursors);
    PeerSlices peerSlices = new PeerSlices(cursors, mapper, tokens);
    ScanSlices slices = new ScanSlices(routing, views.fallbacks(), peerSlices);
    this.pages = new ScanPages(slices, this.scanCursors, this.bounds, peers.timeout(), clock);
    this.clock = clock;
    this.maxPageSize = maxPageSize;
    this.localSlices =
        new LocalSlices(
            views, routing, localStores, this.bounds, this.scanCursors, peerSlices, slices);
    this.streams =
        new ScanStreams(
            views,
            routing,
            localStores,
            this.bounds,
            this.scanCursors,
            slices,
            new ScanLines(mapper),
            peers.timeout(),
            maxPageSize,
            clock);
  }

  /** Scans of whole ranges, streamed a partition slice at a time. */
  public ScanStreams streams() {
    return this.streams;
  }

  /** The slices of this instance's partitions it serves to the instance coordinating a scan. */
  public LocalSlices localSlices() {
    return this.localSlices;
  }

  /** The largest number of items a page may hold. */
  public int maxPageSize() {
    return this.maxPageSize;
  }

  /** A page of a table's keys within the optional bounds [from, to], or why not. */
  public CompletableFuture<Routed<ScanPage<KeyItem>>> keys(
      String viewName,
      @Nullable String from,
      @Nullable String to,
      int limit,
      @Nullable String cursor,
      CallerContext caller) {
    return this.views
        .observed()
        .page(
            viewName,
            "keys",
            caller,
            (observed) -> keysOf(table(viewName), from, to, limit, cursor, observed));
  }

  private <K> CompletableFuture<Routed<ScanPage<KeyItem>>> keysOf(
      ResolvedView<K, ?, ?> view,
      @Nullable String from,
      @Nullable String to,
      int limit,
      @Nullable String cursor,
      CallerContext caller) {
    K fromKey = this.bounds.key(view, "from", from);
    K toKey = this.bounds.key(view, "to", to);
    ScanBounds.requireOrdered(view, from, fromKey, to, toKey);
    List<PartitionOwner> owners = this.routing.owners(view);
    boolean committed = this.localStores.isolation().committed(view, caller.bound());
    ScanSlices.LocalSlice<KeyItem> local =
        (partition, after, sliceLimit, exact) ->
            this.localStores.keys(
                view, partition, fromKey, toKey, after, sliceLimit, exact, committed);
    return this.pages.read(
        new ScanRead<>(view, PeerSlices.KEYS, from, to, local, caller),
        owners,
        this.scanCursors.start(view, owners, "keys:" + from + ":" + to, cursor, 0, 0),
        limit);
  }

  /** A page of the windows starting in [from, to], or why not. */
  public CompletableFuture<Routed<ScanPage<WindowItem>>> windows(
      String viewName,
      @Nullable Instant from,
      @Nullable Instant to,
      int limit,
      @Nullable String cursor,
      CallerContext caller) {
    return this.views
        .observed()
        .page(
            viewName,
            "windows",
            caller,
            (observed) -> windowsOf(viewName, from, to, limit, cursor, observed));
  }

  private CompletableFuture<Routed<ScanPage<WindowItem>>> windowsOf(
      String viewName,
      @Nullable Instant from,
      @Nullable Instant to,
      int limit,
      @Nullable String cursor,
      CallerContext caller) {
    ResolvedView<?, ?, ?> view = this.views.served().view(viewName);
    ViewWindow window = ServedViews.windowOf(view, SCAN_KEYS);
    TimeRange range = TimeRange.of(viewName, window, from, to, this.clock);
    List<PartitionOwner> owners = this.routing.owners(view);
    ScanCursor first =
        this.scanCursors.start(
            view,
            owners,
            "windows:" + from + ":" + to,
            cursor,
            range.from().toEpochMilli(),
            range.to().toEpochMilli());
    Instant start = Instant.ofEpochMilli(first.rangeFrom());
    Instant stop = Instant.ofEpochMilli(first.rangeTo());
    ScanSlices.LocalSlice<WindowItem> local =
        (partition, after, sliceLimit, exact) ->
            this.localStores.windowItems(
                view, window, partition, start, stop, after, sliceLimit, exact);
    return this.pages.read(
        new ScanRead<>(view, PeerSlices.WINDOWS, start, stop, local, caller), owners, first, limit);
  }

  private ResolvedView<?, ?, ?> table(String viewName) {
    return this.views.served().table(viewName, "view", SCAN_WINDOWS);
  }
}
