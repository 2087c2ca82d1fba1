package dev.matview.query;

import dev.matview.replica.ReplicaHandle;
import dev.matview.replica.StoreHandles;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.WindowSegments;
import dev.matview.view.ViewWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.query.WindowKeyQuery;
import org.apache.kafka.streams.query.WindowRangeQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlySessionStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.jspecify.annotations.Nullable;

/**
 * Reads one partition of a view's store on this instance: windows of a key through IQv2, table keys
 * and scans through the store API, in stored key order.
 */
public final class LocalStores {

  private static final Log logger = LogFactory.getLog(LocalStores.class);

  private static final Duration RETRY = Duration.ofSeconds(1);

  private static final int TIMESTAMP_BYTES = Long.BYTES;

  private final Supplier<@Nullable KafkaStreams> streams;

  private final LocalReplicas replicas;

  private final StoreHandles handles;

  /** Reads the stores of {@code streams}, without knowing whether they are caught up. */
  public LocalStores(Supplier<@Nullable KafkaStreams> streams) {
    this(streams, LocalReplicas.NONE, new StoreHandles());
  }

  /**
   * Reads the stores of {@code streams}, telling the restore progress {@code replicas} knows of
   * when a replica cannot answer, and reads a table view's key from its open store in {@code
   * handles} when it has one.
   */
  public LocalStores(
      Supplier<@Nullable KafkaStreams> streams, LocalReplicas replicas, StoreHandles handles) {
    this.streams = streams;
    this.replicas = replicas;
    this.handles = handles;
  }

  /**
   * Refuses with 503 when this instance's replica of the partition is still restoring or catching
   * up, so that no partial state is served as current.
   */
  public void requireCaughtUp(ResolvedView<?, ?, ?> view, @Nullable Object key, int partition) {
    ViewUnavailableException lagging = lagging(view, key, partition);
    if (lagging != null) {
      throw lagging;
    }
  }

  /** The refusal of a local replica that still restores or catches up, with its progress. */
  private @Nullable ViewUnavailableException lagging(
      ResolvedView<?, ?, ?> view, @Nullable Object key, int partition) {
    LocalReplicas.State state = this.replicas.state(view.storeName(), partition);
    if (state == null || state.lag() <= 0) {
      return null;
    }
    Duration eta = state.eta();
    return new ViewUnavailableException(
        view.name(),
        key,
        partition,
        "Partition "
            + partition
            + " of view '"
            + view.name()
            + "' is "
            + (state.role() == Replica.Role.ACTIVE ? "restoring" : "catching up")
            + " from its changelog: "
            + (state.endOffset() < 0
                ? "how far it is behind is not known yet"
                : state.lag() + " of " + state.endOffset() + " offsets to go")
            + (eta != null ? ", about " + Math.max(1, eta.toSeconds()) + " s left" : ""),
        eta != null ? clamp(eta) : RETRY);
  }

  private static Duration clamp(Duration eta) {
    Duration atLeast = eta.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : eta;
    return atLeast.compareTo(Duration.ofSeconds(60)) > 0 ? Duration.ofSeconds(60) : atLeast;
  }

  /** The value of {@code key} in {@code partition}, or {@code null}. */
  public <K> @Nullable Object get(ResolvedView<K, ?, ?> view, K key, int partition) {
    return get(view, key, partition, true);
  }

  /**
   * The value of {@code key} in {@code partition}, or {@code null}; from a running active replica
   * only when {@code runningActive}, else also from a standby or restoring one.
   */
  public <K> @Nullable Object get(
      ResolvedView<K, ?, ?> view, K key, int partition, boolean runningActive) {
    ReplicaHandle handle = this.handles.handle(view.storeName(), partition);
    try {
      if (handle == null) {
        return tableStore(view, key, partition, runningActive).get(key);
      }
      long readiness = handle.readiness();
      if (runningActive && !ReplicaHandle.isReady(readiness)) {
        Object value = tableStore(view, key, partition, true).get(key);
        handle.markReady(readiness);
        return value;
      }
      return value(view, handle.store().get(Bytes.wrap(serializedKey(view, key))));
    } catch (InvalidStateStoreException ex) {
      throw notServing(view, key, partition, ex);
    }
  }

  private static <K> byte[] serializedKey(ResolvedView<K, ?, ?> view, K key) {
    byte[] bytes = view.keySerde().serializer().serialize(view.storeName(), key);
    if (bytes == null) {
      throw new IllegalArgumentException("View '" + view.name() + "' serialized a key as null");
    }
    return bytes;
  }

  /** The aggregate in a timestamped store's value: Kafka Streams' 8-byte timestamp, then it. */
  private static @Nullable Object value(ResolvedView<?, ?, ?> view, byte @Nullable [] stored) {
    if (stored == null) {
      return null;
    }
    return view.aggregateSerde()
        .deserializer()
        .deserialize(view.storeName(), Arrays.copyOfRange(stored, TIMESTAMP_BYTES, stored.length));
  }

  /**
   * The windows of {@code key} in {@code partition} whose start lies in [from, to], oldest first.
   */
  public <K> List<WindowValue> windows(
      ResolvedView<K, ?, ?> view,
      ViewWindow window,
      K key,
      int partition,
      Instant from,
      Instant to,
      boolean runningActive) {
    List<WindowValue> windows = new ArrayList<>();
    if (window.type() == ViewWindow.Type.SESSION) {
      WindowRangeQuery<K, Object> query = WindowRangeQuery.withKey(key);
      try (KeyValueIterator<Windowed<K>, Object> sessions =
          query(view, key, partition, query, runningActive)) {
        while (sessions.hasNext()) {
          KeyValue<Windowed<K>, Object> next = sessions.next();
          Instant start = next.key.window().startTime();
          if (next.value != null && startsIn(start, from, to)) {
            windows.add(new WindowValue(start, next.key.window().endTime(), next.value));
          }
        }
      }
      return windows;
    }
    WindowKeyQuery<K, ValueAndTimestamp<Object>> query =
        WindowKeyQuery.withKeyAndWindowStartRange(key, from, to);
    try (WindowStoreIterator<ValueAndTimestamp<Object>> found =
        query(view, key, partition, query, runningActive)) {
      while (found.hasNext()) {
        KeyValue<Long, ValueAndTimestamp<Object>> next = found.next();
        if (next.value != null && next.value.value() != null) {
          Instant start = Instant.ofEpochMilli(next.key);
          windows.add(new WindowValue(start, start.plus(window.size()), next.value.value()));
        }
      }
    }
    return windows;
  }

  /**
   * Up to {@code limit} keys of {@code partition} in [from, to] that come after {@code after}, in
   * stored key order.
   */
  public <K> Slice<KeyItem> keys(
      ResolvedView<K, ?, ?> view,
      int partition,
      @Nullable K from,
      @Nullable K to,
      @Nullable ScanPosition after,
      int limit) {
    Serde<K> keySerde = view.keySerde();
    K lower =
        after != null ? keySerde.deserializer().deserialize(view.storeName(), after.key()) : from;
    List<KeyItem> items = new ArrayList<>();
    ScanPosition last = null;
    try (KeyValueIterator<K, Object> range =
        tableStore(view, null, partition, true).range(lower, to)) {
      while (items.size() < limit && range.hasNext()) {
        KeyValue<K, Object> next = range.next();
        byte[] keyBytes = keySerde.serializer().serialize(view.storeName(), next.key);
        if (next.value == null || (after != null && Arrays.equals(keyBytes, after.key()))) {
          continue;
        }
        items.add(new KeyItem(next.key, next.value));
        last = new ScanPosition(keyBytes, 0);
      }
      return new Slice<>(items, last, !range.hasNext());
    } catch (InvalidStateStoreException ex) {
      throw notServing(view, null, partition, ex);
    }
  }

  /**
   * Up to {@code limit} windows of {@code partition} whose start lies in [from, to] and that come
   * after {@code after}, ordered by stored key, then window start.
   */
  public <K> Slice<WindowItem> windowItems(
      ResolvedView<K, ?, ?> view,
      ViewWindow window,
      int partition,
      Instant from,
      Instant to,
      @Nullable ScanPosition after,
      int limit) {
    Serde<K> keySerde = view.keySerde();
    K fromKey =
        after != null ? keySerde.deserializer().deserialize(view.storeName(), after.key()) : null;
    WindowPage<K> page =
        new WindowPage<>(
            keySerde.serializer(),
            view.storeName(),
            window,
            WindowSegments.interval(window).toMillis(),
            from,
            to,
            after);
    return page.read(windowIterators(view, window, partition, fromKey, from, to), limit);
  }

  /**
   * One partition of a table view's store, through the store API rather than IQv2: Kafka 4.1.2's
   * IQv2 key and range queries of RocksDB key-value stores can deadlock with the stream thread
   * (KAFKA-19629). Only a running active replica answers unless {@code runningActive} is false.
   */
  private <K> ReadOnlyKeyValueStore<K, Object> tableStore(
      ResolvedView<K, ?, ?> view, @Nullable Object key, int partition, boolean runningActive) {
    KafkaStreams kafkaStreams = running(view, key, partition);
    StoreQueryParameters<ReadOnlyKeyValueStore<K, Object>> parameters =
        StoreQueryParameters.fromNameAndType(
                view.storeName(), QueryableStoreTypes.<K, Object>keyValueStore())
            .withPartition(partition);
    try {
      return kafkaStreams.store(runningActive ? parameters : parameters.enableStaleStores());
    } catch (InvalidStateStoreException ex) {
      throw notServing(view, key, partition, ex);
    }
  }

  private ViewUnavailableException notServing(
      ResolvedView<?, ?, ?> view,
      @Nullable Object key,
      int partition,
      InvalidStateStoreException ex) {
    return unavailable(
        view,
        key,
        partition,
        "its replica here is still restoring, being assigned or not here ("
            + ex.getMessage()
            + ")");
  }

  /**
   * Opens iterators over the windows of {@code partition} from {@code fromKey} (or the first key)
   * on whose segment time is at least the epoch millisecond given (and not before {@code from}) and
   * that may start in [from, to]: a superset the caller narrows to the windows that start in it.
   */
  private <K> LongFunction<KeyValueIterator<Windowed<K>, Object>> windowIterators(
      ResolvedView<K, ?, ?> view,
      ViewWindow window,
      int partition,
      @Nullable K fromKey,
      Instant from,
      Instant to) {
    KafkaStreams kafkaStreams = running(view, null, partition);
    long earliest = from.toEpochMilli();
    try {
      if (window.type() == ViewWindow.Type.SESSION) {
        ReadOnlySessionStore<K, Object> store =
            kafkaStreams.store(
                StoreQueryParameters.fromNameAndType(
                        view.storeName(), QueryableStoreTypes.<K, Object>sessionStore())
                    .withPartition(partition));
        return segmentFrom ->
            sessionsThatMayStartIn(store, fromKey, Math.max(segmentFrom, earliest), to);
      }
      ReadOnlyWindowStore<K, Object> store =
          kafkaStreams.store(
              StoreQueryParameters.fromNameAndType(
                      view.storeName(), QueryableStoreTypes.<K, Object>windowStore())
                  .withPartition(partition));
      return segmentFrom ->
          store.fetch(fromKey, null, Instant.ofEpochMilli(Math.max(segmentFrom, earliest)), to);
    } catch (InvalidStateStoreException ex) {
      throw unavailable(view, null, partition, ex.getMessage());
    }
  }

  /**
   * The sessions from {@code fromKey} (or the first key) on that end at or after {@code
   * earliestEnd} and start at or before {@code to}: every session that starts in [from, to] ends at
   * or after its start, so this holds them all, and some that start before {@code from}, which the
   * caller drops. Kafka Streams' read-only session store answers a key range only through the
   * variant in epoch milliseconds; the one taking instants is not implemented and throws.
   */
  private static <K> KeyValueIterator<Windowed<K>, Object> sessionsThatMayStartIn(
      ReadOnlySessionStore<K, Object> store, @Nullable K fromKey, long earliestEnd, Instant to) {
    return store.findSessions(fromKey, null, earliestEnd, to.toEpochMilli());
  }

  /** Whether a window that starts at {@code start} lies in the range [from, to] asked. */
  static boolean startsIn(Instant start, Instant from, Instant to) {
    return !start.isBefore(from) && !start.isAfter(to);
  }

  private <R> R query(
      ResolvedView<?, ?, ?> view,
      @Nullable Object key,
      int partition,
      Query<R> query,
      boolean runningActive) {
    KafkaStreams kafkaStreams = running(view, key, partition);
    StateQueryResult<R> result;
    try {
      result =
          kafkaStreams.query(
              runningActive
                  ? StateQueryRequest.inStore(view.storeName())
                      .withQuery(query)
                      .withPartitions(Set.of(partition))
                      .requireActive()
                  : StateQueryRequest.inStore(view.storeName())
                      .withQuery(query)
                      .withPartitions(Set.of(partition)));
    } catch (InvalidStateStoreException ex) {
      throw unavailable(view, key, partition, ex.getMessage());
    }
    QueryResult<R> partitionResult = result.getPartitionResults().get(partition);
    if (partitionResult == null) {
      throw unavailable(view, key, partition, "this instance does not host it");
    }
    if (partitionResult.isFailure()) {
      throw unavailable(
          view, key, partition, failureReason(view.name(), partition, partitionResult));
    }
    return partitionResult.getResult();
  }

  /**
   * A short, true reason for a failed store query. Kafka Streams' failure message can hold a whole
   * stack trace, so it is logged here, at WARN when the store itself failed, and never sent to the
   * caller.
   */
  static String failureReason(String view, int partition, QueryResult<?> result) {
    FailureReason failure = result.getFailureReason();
    String message = "Query of partition " + partition + " of view '" + view + "' failed: ";
    if (failure == FailureReason.STORE_EXCEPTION) {
      logger.warn(message + failure + ": " + result.getFailureMessage());
    } else if (logger.isDebugEnabled()) {
      logger.debug(message + failure + ": " + result.getFailureMessage());
    }
    return switch (failure) {
      case NOT_ACTIVE -> "its replica here is still restoring or being assigned";
      case NOT_UP_TO_BOUND -> "its replica here has not yet caught up";
      case NOT_PRESENT -> "this instance does not host it";
      case DOES_NOT_EXIST -> "its store does not exist here";
      case UNKNOWN_QUERY_TYPE -> "its store cannot answer this kind of query";
      case STORE_EXCEPTION ->
          "its store failed the query (" + failure + ", logged by this instance)";
    };
  }

  private KafkaStreams running(ResolvedView<?, ?, ?> view, @Nullable Object key, int partition) {
    KafkaStreams kafkaStreams = this.streams.get();
    if (kafkaStreams == null || !kafkaStreams.state().isRunningOrRebalancing()) {
      throw unavailable(view, key, partition, "Kafka Streams is not running");
    }
    return kafkaStreams;
  }

  /** A refusal that tells the restore progress when the local replica is known to lag. */
  private ViewUnavailableException unavailable(
      ResolvedView<?, ?, ?> view, @Nullable Object key, int partition, @Nullable String reason) {
    ViewUnavailableException lagging = lagging(view, key, partition);
    if (lagging != null) {
      return lagging;
    }
    return new ViewUnavailableException(
        view.name(),
        key,
        partition,
        "Partition " + partition + " of view '" + view.name() + "' cannot answer now: " + reason,
        RETRY);
  }
}
