package dev.matview.query;

import dev.matview.peer.PeerPath;
import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewWindow;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
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

  private final KeyParser keyParser;

  private final CursorCodec cursors;

  private final ObjectMapper mapper;

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
    this.keyParser = keyParser;
    this.cursors = cursors;
    this.mapper = mapper;
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
    K fromKey = bound(view, "from", from);
    K toKey = bound(view, "to", to);
    requireOrdered(view, from, fromKey, to, toKey);
    Consumer<PeerPath> query = path -> path.param("from", from).param("to", to);
    List<PartitionOwner> owners = this.routing.owners(view);
    return scan(
        view,
        owners,
        start(view, owners, "keys:" + from + ":" + to, cursor, 0, 0),
        limit,
        caller,
        (owner, after, sliceLimit, timeout) ->
            this.routing.isLocal(owner)
                ? this.localStores.keys(view, owner.partition(), fromKey, toKey, after, sliceLimit)
                : remoteSlice(
                    view, owner, "keys", query, after, sliceLimit, caller, timeout, this::keyItem));
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
        start(
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
                : remoteSlice(
                    view,
                    owner,
                    "windows",
                    query,
                    after,
                    sliceLimit,
                    caller,
                    timeout,
                    this::windowItem));
  }

  /** This instance's slice of one partition's keys, for the instance that coordinates a scan. */
  public Slice<KeyItem> localKeySlice(
      String viewName,
      int partition,
      @Nullable String from,
      @Nullable String to,
      @Nullable String after,
      int limit) {
    ResolvedView<?, ?, ?> view = table(viewName);
    return localKeySliceOf(view, partition, from, to, after, limit);
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
        bound(view, "from", from),
        bound(view, "to", to),
        position(view, after),
        checkedLimit(view, limit));
  }

  /** This instance's slice of one partition's windows, for the instance that coordinates a scan. */
  public Slice<WindowItem> localWindowSlice(
      String viewName, int partition, Instant from, Instant to, @Nullable String after, int limit) {
    ResolvedView<?, ?, ?> view = this.views.view(viewName);
    ViewWindow window = ViewQueryService.windowOf(view, SCAN_KEYS);
    TimeRange range = TimeRange.exactly(viewName, from, to);
    requireLocal(view, partition);
    return this.localStores.windowItems(
        view,
        window,
        partition,
        range.from(),
        range.to(),
        position(view, after),
        checkedLimit(view, limit));
  }

  /**
   * Where a scan starts: at the cursor, checked against the view and the bounds asked, or at the
   * first partition with the given time range.
   */
  private ScanCursor start(
      ResolvedView<?, ?, ?> view,
      List<PartitionOwner> owners,
      String bounds,
      @Nullable String encodedCursor,
      long rangeFrom,
      long rangeTo) {
    return encodedCursor != null
        ? cursor(view, encodedCursor, owners.size(), bounds.hashCode())
        : new ScanCursor(0, owners.size(), bounds.hashCode(), rangeFrom, rangeTo, null);
  }

  private <T> ScanPage<T> scan(
      ResolvedView<?, ?, ?> view,
      List<PartitionOwner> owners,
      ScanCursor cursor,
      int limit,
      CallerContext caller,
      SliceReader<T> reader) {
    checkedLimit(view, limit);
    Instant deadline = this.clock.instant().plus(this.peers.timeout());
    List<T> items = new ArrayList<>();
    for (int partition = cursor.partition(); partition < owners.size(); partition++) {
      ScanPosition after = partition == cursor.partition() ? cursor.after() : null;
      PartitionOwner owner = owners.get(partition);
      Slice<T> slice =
          reader.read(owner, after, limit - items.size(), remaining(view, owner, deadline));
      items.addAll(slice.items());
      if (items.size() >= limit) {
        ScanCursor next = nextCursor(cursor, partition, owners.size(), slice);
        return new ScanPage<>(items, next != null ? this.cursors.encode(view.name(), next) : null);
      }
    }
    return new ScanPage<>(items, null);
  }

  private static @Nullable ScanCursor nextCursor(
      ScanCursor cursor, int partition, int partitionCount, Slice<?> slice) {
    if (!slice.exhausted()) {
      return cursor.moveTo(partition, slice.last());
    }
    return partition + 1 < partitionCount ? cursor.moveTo(partition + 1, null) : null;
  }

  private ScanCursor cursor(
      ResolvedView<?, ?, ?> view, String encoded, int partitionCount, int boundsHash) {
    ScanCursor cursor;
    try {
      cursor = this.cursors.decode(view.name(), encoded);
    } catch (IllegalArgumentException ex) {
      throw new InvalidQueryException(view.name(), "cursor", "Invalid cursor: " + ex.getMessage());
    }
    if (cursor.partitionCount() != partitionCount) {
      throw staleCursor(view, cursor, partitionCount);
    }
    if (cursor.boundsHash() != boundsHash) {
      throw new InvalidQueryException(
          view.name(),
          "cursor",
          "The cursor belongs to a scan with other bounds; pass the same from and to as the first"
              + " page, or start again without a cursor");
    }
    if (cursor.partition() < 0 || cursor.partition() >= partitionCount) {
      throw new InvalidQueryException(view.name(), "cursor", "The cursor names no partition");
    }
    return cursor;
  }

  private static InvalidQueryException staleCursor(
      ResolvedView<?, ?, ?> view, ScanCursor cursor, int partitionCount) {
    return new InvalidQueryException(
        view.name(),
        "cursor",
        "The cursor is stale: view '"
            + view.name()
            + "' had "
            + cursor.partitionCount()
            + " partitions when it was issued and has "
            + partitionCount
            + " now; start the scan again without a cursor");
  }

  private <T> Slice<T> remoteSlice(
      ResolvedView<?, ?, ?> view,
      PartitionOwner owner,
      String kind,
      Consumer<PeerPath> query,
      @Nullable ScanPosition after,
      int limit,
      CallerContext caller,
      Duration timeout,
      ItemReader<T> itemReader) {
    if (caller.forwarded()) {
      throw ViewUnavailableException.notOwner(view.name(), null, owner);
    }
    PeerPath path =
        PeerPath.of(view.name(), "partitions", Integer.toString(owner.partition()), kind)
            .param("limit", limit);
    query.accept(path);
    path.param("after", after != null ? this.cursors.encodePosition(view.name(), after) : null);
    PeerResponse response = this.peers.get(view.name(), owner, path.toString(), caller, timeout);
    if (response.status() == 403) {
      PeerClient.warn(
          owner,
          view.name(),
          "refused this instance's signed request: the two do not share one secret;"
              + " give every instance the same matview.peers.secret");
      throw new ViewUnavailableException(
          view.name(),
          null,
          owner.partition(),
          "The instance that owns partition "
              + owner.partition()
              + " refused this instance's request: the instances do not share one secret, so"
              + " give every instance the same matview.peers.secret",
          StreamsRouting.REBALANCE_RETRY);
    }
    if (!response.isSuccess()) {
      throw new PeerProblemException(response);
    }
    try {
      JsonNode body = this.mapper.readTree(response.body());
      List<T> items = new ArrayList<>();
      for (JsonNode item : body.path("items")) {
        items.add(itemReader.read(item));
      }
      JsonNode last = body.path("last");
      return new Slice<>(
          items,
          last.isString() ? this.cursors.decodePosition(view.name(), last.asString()) : null,
          body.path("exhausted").asBoolean());
    } catch (JacksonException | IllegalArgumentException ex) {
      PeerClient.warn(owner, view.name(), "sent a slice that cannot be read: " + ex.getMessage());
      throw new ViewUnavailableException(
          view.name(),
          null,
          owner.partition(),
          "The instance that owns partition "
              + owner.partition()
              + " sent a slice that cannot be read: "
              + ex.getMessage(),
          StreamsRouting.REBALANCE_RETRY);
    }
  }

  private KeyItem keyItem(JsonNode item) {
    return new KeyItem(item.path("key"), item.path("value"));
  }

  private WindowItem windowItem(JsonNode item) {
    return new WindowItem(
        item.path("key"),
        Instant.parse(item.path("start").asString()),
        Instant.parse(item.path("end").asString()),
        item.path("value"));
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

  private int checkedLimit(ResolvedView<?, ?, ?> view, int limit) {
    if (limit < 1 || limit > this.maxPageSize) {
      throw new InvalidQueryException(
          view.name(),
          "limit",
          "'limit' must be between 1 and " + this.maxPageSize + ", was " + limit);
    }
    return limit;
  }

  private <K> @Nullable K bound(
      ResolvedView<K, ?, ?> view, String parameter, @Nullable String raw) {
    if (raw == null || raw.isEmpty()) {
      return null;
    }
    try {
      return this.keyParser.parse(view.definition().keyType(), raw);
    } catch (IllegalArgumentException ex) {
      throw new InvalidQueryException(
          view.name(), parameter, "Bound '" + parameter + "': " + ex.getMessage());
    }
  }

  /**
   * Refuses key bounds whose {@code from} sorts after {@code to}: keys are compared as the store
   * orders them, by their serialized bytes, so such a scan could never find a key.
   */
  private static <K> void requireOrdered(
      ResolvedView<K, ?, ?> view,
      @Nullable String rawFrom,
      @Nullable K from,
      @Nullable String rawTo,
      @Nullable K to) {
    if (from == null || to == null) {
      return;
    }
    Serializer<K> serializer = view.keySerde().serializer();
    byte[] fromBytes = serializer.serialize(view.storeName(), from);
    byte[] toBytes = serializer.serialize(view.storeName(), to);
    if (Arrays.compareUnsigned(fromBytes, toBytes) > 0) {
      throw new InvalidQueryException(
          view.name(),
          "from",
          "'from' ("
              + rawFrom
              + ") must not be after 'to' ("
              + rawTo
              + "); keys are ordered as stored, by their serialized bytes");
    }
  }

  private @Nullable ScanPosition position(ResolvedView<?, ?, ?> view, @Nullable String after) {
    if (after == null || after.isEmpty()) {
      return null;
    }
    try {
      return this.cursors.decodePosition(view.name(), after);
    } catch (IllegalArgumentException ex) {
      throw new InvalidQueryException(view.name(), "after", "Invalid position: " + ex.getMessage());
    }
  }

  /** The token of {@code position} in {@code viewName}, as an instance sends it to another. */
  public String positionToken(String viewName, ScanPosition position) {
    return this.cursors.encodePosition(viewName, position);
  }

  @FunctionalInterface
  private interface SliceReader<T> {

    Slice<T> read(PartitionOwner owner, @Nullable ScanPosition after, int limit, Duration timeout);
  }

  @FunctionalInterface
  private interface ItemReader<T> {

    T read(JsonNode item);
  }
}
