package dev.matview.query;

import dev.matview.peer.PeerPath;
import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewWindow;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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

  private static final String SCAN_KEYS = "scan its keys at .../keys";

  private final ViewQueryService views;

  private final Routing routing;

  private final LocalStores localStores;

  private final PeerClient peers;

  private final ScanBounds bounds;

  private final ScanCursors scanCursors;

  private final PeerSlices slices;

  private final Clock clock;

  private final int maxPageSize;

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
    this.views = views;
    this.routing = routing;
    this.localStores = localStores;
    this.peers = peers;
    this.bounds = new ScanBounds(keyParser, maxPageSize);
    this.scanCursors = new ScanCursors(cursors);
    this.slices = new PeerSlices(peers, cursors, mapper);
    this.clock = clock;
    this.maxPageSize = maxPageSize;
  }

  /** The largest number of items a page may hold. */
  public int maxPageSize() {
    return this.maxPageSize;
  }

  /** A page of the keys of a table view within the optional key bounds [from, to]. */
  public ScanPage<KeyItem> keys(
      String viewName,
      @Nullable String from,
      @Nullable String to,
      int limit,
      @Nullable String cursor,
      CallerContext caller) {
    ResolvedView<?, ?, ?> view = table(viewName);
    return keysOf(view, from, to, limit, cursor, caller);
  }

  private <K> ScanPage<KeyItem> keysOf(
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
        (owner, after, sliceLimit, timeout) ->
            this.routing.isLocal(owner)
                ? this.localStores.keys(view, owner.partition(), fromKey, toKey, after, sliceLimit)
                : this.slices.fetch(
                    view, owner, PeerSlices.KEYS, query, after, sliceLimit, caller, timeout));
  }

  /** A page of the windows of a windowed or session view whose start lies in [from, to]. */
  public ScanPage<WindowItem> windows(
      String viewName,
      @Nullable Instant from,
      @Nullable Instant to,
      int limit,
      @Nullable String cursor,
      CallerContext caller) {
    ResolvedView<?, ?, ?> view = this.views.view(viewName);
    ViewWindow window = ViewQueryService.windowOf(view, SCAN_KEYS);
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
        (owner, after, sliceLimit, timeout) ->
            this.routing.isLocal(owner)
                ? this.localStores.windowItems(
                    view, window, owner.partition(), start, stop, after, sliceLimit)
                : this.slices.fetch(
                    view, owner, PeerSlices.WINDOWS, query, after, sliceLimit, caller, timeout));
  }

  /** This instance's slice of one partition's keys, for the instance that coordinates a scan. */
  public PeerSlices.SliceBody<KeyItem> localKeySlice(
      String viewName,
      int partition,
      @Nullable String from,
      @Nullable String to,
      @Nullable String after,
      int limit) {
    ResolvedView<?, ?, ?> view = table(viewName);
    return this.slices.keysBody(viewName, localKeySliceOf(view, partition, from, to, after, limit));
  }

  private <K> Slice<KeyItem> localKeySliceOf(
      ResolvedView<K, ?, ?> view,
      int partition,
      @Nullable String from,
      @Nullable String to,
      @Nullable String after,
      int limit) {
    requireLocal(view, partition);
    return this.localStores.keys(
        view,
        partition,
        this.bounds.key(view, "from", from),
        this.bounds.key(view, "to", to),
        this.scanCursors.position(view, after),
        this.bounds.limit(view, limit));
  }

  /** This instance's slice of one partition's windows, for the instance that coordinates a scan. */
  public PeerSlices.SliceBody<PeerSlices.PeerWindow> localWindowSlice(
      String viewName, int partition, Instant from, Instant to, @Nullable String after, int limit) {
    ResolvedView<?, ?, ?> view = this.views.view(viewName);
    ViewWindow window = ViewQueryService.windowOf(view, SCAN_KEYS);
    TimeRange range = TimeRange.exactly(viewName, from, to);
    requireLocal(view, partition);
    return this.slices.windowsBody(
        viewName,
        this.localStores.windowItems(
            view,
            window,
            partition,
            range.from(),
            range.to(),
            this.scanCursors.position(view, after),
            this.bounds.limit(view, limit)));
  }

  private <T> ScanPage<T> scan(
      ResolvedView<?, ?, ?> view,
      List<PartitionOwner> owners,
      ScanCursor cursor,
      int limit,
      CallerContext caller,
      SliceReader<T> reader) {
    this.bounds.limit(view, limit);
    Instant deadline = this.clock.instant().plus(this.peers.timeout());
    List<T> items = new ArrayList<>();
    for (int partition = cursor.partition(); partition < owners.size(); partition++) {
      ScanPosition after = partition == cursor.partition() ? cursor.after() : null;
      PartitionOwner owner = owners.get(partition);
      Slice<T> slice =
          reader.read(owner, after, limit - items.size(), remaining(view, owner, deadline));
      items.addAll(slice.items());
      if (items.size() >= limit) {
        ScanCursor next = ScanCursors.next(cursor, partition, owners.size(), slice);
        return new ScanPage<>(items, next != null ? this.scanCursors.encode(view, next) : null);
      }
    }
    return new ScanPage<>(items, null);
  }

  private Duration remaining(ResolvedView<?, ?, ?> view, PartitionOwner owner, Instant deadline) {
    Duration remaining = Duration.between(this.clock.instant(), deadline);
    if (remaining.isNegative() || remaining.isZero()) {
      if (logger.isDebugEnabled()) {
        logger.debug(
            "A scan of view '"
                + view.name()
                + "' ran out of time before partition "
                + owner.partition()
                + " on "
                + owner.describe()
                + " answered");
      }
      throw new ViewTimeoutException(
          view.name(),
          owner.partition(),
          owner.describe(),
          "The scan of view '"
              + view.name()
              + "' ran out of its "
              + this.peers.timeout().toMillis()
              + " ms before partition "
              + owner.partition()
              + " answered; ask for a smaller page");
    }
    return remaining;
  }

  private ResolvedView<?, ?, ?> table(String viewName) {
    return this.views.table(viewName, "view", "scan its windows at .../windows");
  }

  private void requireLocal(ResolvedView<?, ?, ?> view, int partition) {
    List<PartitionOwner> owners = this.routing.owners(view);
    if (partition < 0 || partition >= owners.size()) {
      throw new InvalidQueryException(
          view.name(),
          "partition",
          "View '" + view.name() + "' has partitions 0 to " + (owners.size() - 1));
    }
    PartitionOwner owner = owners.get(partition);
    if (!this.routing.isLocal(owner)) {
      throw ViewUnavailableException.notOwner(view.name(), null, owner);
    }
  }

  @FunctionalInterface
  private interface SliceReader<T> {

    Slice<T> read(PartitionOwner owner, @Nullable ScanPosition after, int limit, Duration timeout);
  }
}
