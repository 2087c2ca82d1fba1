package dev.matview.query;

import dev.matview.peer.PeerPath;
import dev.matview.position.PositionTokens;
import dev.matview.query.answer.Futures;
import dev.matview.query.answer.KeyItem;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.ScanPage;
import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.Slice;
import dev.matview.query.answer.ViewUnavailableException;
import dev.matview.query.answer.WindowItem;
import dev.matview.query.local.LocalStores;
import dev.matview.query.peer.PeerClient;
import dev.matview.query.routing.CallerContext;
import dev.matview.query.routing.Routing;
import dev.matview.query.scan.CursorCodec;
import dev.matview.query.scan.PeerSlices;
import dev.matview.query.scan.ScanCursor;
import dev.matview.query.scan.ScanCursors;
import dev.matview.query.scan.ScanDeadline;
import dev.matview.query.scan.ScanLines;
import dev.matview.query.scan.ScanSlices;
import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewWindow;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ObjectMapper;

/**
 * Scans all keys, or all windows, of a view across every partition on every instance, a page at a
 * time: each page walks the partitions in order and asks each owner for its slice.
 */
public final class ViewScanService {

  private static final Log logger = LogFactory.getLog(ViewScanService.class);

  /** What to do instead when a table's windows are scanned. */
  static final String SCAN_KEYS = "scan its keys at .../keys";

  /** What to do instead when a windowed view's keys are scanned. */
  static final String SCAN_WINDOWS = "scan its windows at .../windows";

  private final ViewQueryService views;

  private final Routing routing;

  private final LocalStores localStores;

  private final PeerClient peers;

  private final ScanBounds bounds;

  private final ScanCursors scanCursors;

  private final ScanSlices slices;

  private final Clock clock;

  private final int maxPageSize;

  private final LocalSlices localSlices;

  private final ScanStreams streams;

  /** A scan service whose pages hold at most {@code maxPageSize} items. */
  public ViewScanService(
      ViewQueryService views,
      Routing routing,
      LocalStores localStores,
      PeerClient peers,
      KeyParser keyParser,
      CursorCodec cursors,
      ObjectMapper mapper,
      Clock clock,
      int maxPageSize) {
    this(views, routing, localStores, peers, keyParser, cursors, mapper, clock, maxPageSize, null);
  }

  /**
   * A scan service as above whose pages carry the positions of the replicas they read, those of
   * other instances read with {@code tokens}.
   */
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
    this.peers = peers;
    this.bounds = new ScanBounds(keyParser, maxPageSize);
    this.scanCursors = new ScanCursors(cursors);
    PeerSlices slices = new PeerSlices(cursors, mapper, tokens);
    this.slices = new ScanSlices(routing, views.fallbacks(), slices);
    this.clock = clock;
    this.maxPageSize = maxPageSize;
    this.localSlices =
        new LocalSlices(
            views, routing, localStores, this.bounds, this.scanCursors, slices, this.slices);
    this.streams =
        new ScanStreams(
            views,
            routing,
            localStores,
            this.bounds,
            this.scanCursors,
            this.slices,
            new ScanLines(mapper),
            peers.timeout(),
            maxPageSize,
            clock);
  }

  /** Scans of whole ranges, streamed a partition slice at a time. */
  public ScanStreams streams() {
    return this.streams;
  }

  /**
   * The slices of this instance's partitions that it serves to the instance coordinating a scan.
   */
  public LocalSlices localSlices() {
    return this.localSlices;
  }

  /** The largest number of items a page may hold. */
  public int maxPageSize() {
    return this.maxPageSize;
  }

  /**
   * A page of the keys of a table view within the optional key bounds [from, to]; an owner's
   * problem detail to pass on; or why no replica of a partition could serve its part of the page.
   * Slices that other instances hold are asked of them without a thread waiting.
   */
  public CompletableFuture<Routed<ScanPage<KeyItem>>> keys(
      String viewName,
      @Nullable String from,
      @Nullable String to,
      int limit,
      @Nullable String cursor,
      CallerContext caller) {
    try {
      ResolvedView<?, ?, ?> view = table(viewName);
      return keysOf(view, from, to, limit, cursor, caller);
    } catch (ViewUnavailableException ex) {
      return CompletableFuture.completedFuture(new Routed.Refused<>(Refusal.of(ex)));
    }
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
    Consumer<PeerPath> query = path -> path.param("from", from).param("to", to);
    List<PartitionOwner> owners = this.routing.owners(view);
    return scan(
        view,
        owners,
        this.scanCursors.start(view, owners, "keys:" + from + ":" + to, cursor, 0, 0),
        limit,
        caller,
        PeerSlices.KEYS,
        query,
        (partition, after, sliceLimit, exact) ->
            this.localStores.keys(view, partition, fromKey, toKey, after, sliceLimit, exact));
  }

  /**
   * A page of the windows of a windowed or session view whose start lies in [from, to]; an owner's
   * problem detail to pass on; or why no replica of a partition could serve its part of the page.
   * Slices that other instances hold are asked of them without a thread waiting.
   */
  public CompletableFuture<Routed<ScanPage<WindowItem>>> windows(
      String viewName,
      @Nullable Instant from,
      @Nullable Instant to,
      int limit,
      @Nullable String cursor,
      CallerContext caller) {
    try {
      return windowsOf(viewName, from, to, limit, cursor, caller);
    } catch (ViewUnavailableException ex) {
      return CompletableFuture.completedFuture(new Routed.Refused<>(Refusal.of(ex)));
    }
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
    Consumer<PeerPath> query = path -> path.param("from", start).param("to", stop);
    return scan(
        view,
        owners,
        first,
        limit,
        caller,
        PeerSlices.WINDOWS,
        query,
        (partition, after, sliceLimit, exact) ->
            this.localStores.windowItems(
                view, window, partition, start, stop, after, sliceLimit, exact));
  }

  private <T> CompletableFuture<Routed<ScanPage<T>>> scan(
      ResolvedView<?, ?, ?> view,
      List<PartitionOwner> owners,
      ScanCursor cursor,
      int limit,
      CallerContext caller,
      PeerSlices.Kind<T> kind,
      Consumer<PeerPath> query,
      ScanSlices.LocalSlice<T> local) {
    this.bounds.limit(view, limit);
    Duration timeout = this.peers.timeout();
    ScanDeadline deadline =
        ScanDeadline.startingNow(
            this.clock,
            caller.bound().isBound() ? timeout.plus(caller.bound().maxWait()) : timeout);
    return new PageRead<>(view, owners, cursor, limit, caller, kind, query, local, deadline)
        .from(cursor.partition());
  }

  /** One page of a scan, read partition after partition until it is full or the view ends. */
  private final class PageRead<T> {

    private final ResolvedView<?, ?, ?> view;

    private final List<PartitionOwner> owners;

    private final ScanCursor cursor;

    private final int limit;

    private final CallerContext caller;

    private final PeerSlices.Kind<T> kind;

    private final Consumer<PeerPath> query;

    private final ScanSlices.LocalSlice<T> local;

    private final ScanDeadline deadline;

    private final MergedPosition position;

    private final List<T> items = new ArrayList<>();

    PageRead(
        ResolvedView<?, ?, ?> view,
        List<PartitionOwner> owners,
        ScanCursor cursor,
        int limit,
        CallerContext caller,
        PeerSlices.Kind<T> kind,
        Consumer<PeerPath> query,
        ScanSlices.LocalSlice<T> local,
        ScanDeadline deadline) {
      this.view = view;
      this.owners = owners;
      this.cursor = cursor;
      this.limit = limit;
      this.caller = caller;
      this.kind = kind;
      this.query = query;
      this.local = local;
      this.deadline = deadline;
      this.position = new MergedPosition(view.name(), null);
    }

    /**
     * The page, read from partition {@code first} on: in this thread while slices are answered at
     * once, then on from where an answer that waits for another instance completes.
     */
    CompletableFuture<Routed<ScanPage<T>>> from(int first) {
      for (int partition = first; partition < this.owners.size(); partition++) {
        ScanPosition after = partition == this.cursor.partition() ? this.cursor.after() : null;
        PartitionOwner owner = this.owners.get(partition);
        Duration remaining = this.deadline.remaining();
        if (remaining == null) {
          return CompletableFuture.completedFuture(
              new Routed.Refused<>(this.deadline.outOfTime(this.view, owner)));
        }
        CompletableFuture<Routed<Slice<T>>> read =
            ViewScanService.this.slices.read(
                this.view,
                owner,
                this.kind,
                this.query,
                after,
                this.limit - this.items.size(),
                this.caller,
                remaining,
                this.local);
        if (!read.isDone()) {
          int waited = partition;
          return read.thenCompose(
              (slice) -> {
                @Nullable Routed<ScanPage<T>> page = add(waited, slice);
                return (page != null) ? CompletableFuture.completedFuture(page) : from(waited + 1);
              });
        }
        @Nullable Routed<ScanPage<T>> page = add(partition, Futures.now(read));
        if (page != null) {
          return CompletableFuture.completedFuture(page);
        }
      }
      return CompletableFuture.completedFuture(
          new Routed.Local<>(new ScanPage<>(this.items, null), this.position.merged()));
    }

    /**
     * Adds {@code read}, the slice of {@code partition}, to the page; the page when it is full, the
     * outcome to pass on when the slice was not read, else {@code null} to read on.
     */
    private @Nullable Routed<ScanPage<T>> add(int partition, Routed<Slice<T>> read) {
      if (!(read instanceof Routed.Local<Slice<T>> here)) {
        return Routed.passedOn(read);
      }
      Slice<T> slice = here.answer();
      this.position.add(here);
      this.items.addAll(slice.items());
      if (this.items.size() < this.limit) {
        return null;
      }
      ScanCursor next = ScanCursors.next(this.cursor, partition, this.owners.size(), slice);
      return new Routed.Local<>(
          new ScanPage<>(
              this.items,
              next != null ? ViewScanService.this.scanCursors.encode(this.view, next) : null),
          this.position.merged());
    }
  }

  private ResolvedView<?, ?, ?> table(String viewName) {
    return this.views.served().table(viewName, "view", SCAN_WINDOWS);
  }
}
