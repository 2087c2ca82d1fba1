package dev.matview.query.local;

import dev.matview.query.answer.KeyItem;
import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.Slice;
import dev.matview.query.answer.ViewUnavailableException;
import dev.matview.query.answer.WindowItem;
import dev.matview.query.answer.WindowValue;
import dev.matview.replica.ReplicaHandle;
import dev.matview.replica.StoreHandles;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.view.ViewWindow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.jspecify.annotations.Nullable;

/**
 * Reads one partition of a view's store on this instance: a table's key from the store partition's
 * handle once it is known to run (through Kafka Streams until then, and while the record cache
 * holds an update of the key that RocksDB lacks), a table's scan through the store API in stored
 * key order, which reads through the record cache, and windows through {@link LocalWindows}.
 */
public final class LocalStores {

  private static final int TIMESTAMP_BYTES = Long.BYTES;

  private final StoreHandles handles;

  private final LocalRefusals refusals;

  private final LocalWindows windows;

  private final LocalPositions positions;

  private final Map<String, String> storeTopics;

  /** Reads the stores of {@code streams}, without knowing whether they are caught up. */
  public LocalStores(Supplier<@Nullable KafkaStreams> streams) {
    this(streams, LocalReplicas.NONE, new StoreHandles(), Map.of(), null);
  }

  /**
   * Reads the stores of the views in {@code registry} that {@code streams} runs, telling the
   * restore progress {@code replicas} knows of when a replica cannot answer, and reads a table
   * view's key from its open store in {@code handles} when it has one.
   */
  public LocalStores(
      Supplier<@Nullable KafkaStreams> streams,
      LocalReplicas replicas,
      StoreHandles handles,
      ViewRegistry registry) {
    this(streams, replicas, handles, storeTopics(registry), null);
  }

  /**
   * Stores as above that ask {@code sources} of the source records a lookup names with {@code
   * after=}.
   */
  public LocalStores(
      Supplier<@Nullable KafkaStreams> streams,
      LocalReplicas replicas,
      StoreHandles handles,
      ViewRegistry registry,
      SourceRecords sources) {
    this(streams, replicas, handles, storeTopics(registry), sources);
  }

  private LocalStores(
      Supplier<@Nullable KafkaStreams> streams,
      LocalReplicas replicas,
      StoreHandles handles,
      Map<String, String> storeTopics,
      @Nullable SourceRecords sources) {
    this.handles = handles;
    this.storeTopics = storeTopics;
    this.refusals = new LocalRefusals(streams, replicas);
    this.windows = new LocalWindows(this.refusals, handles, this::storeTopic);
    this.positions = new LocalPositions(handles.positions(), sources);
  }

  /** How far the store partitions here have applied their topics. */
  public LocalPositions positions() {
    return this.positions;
  }

  /**
   * The topic that Kafka Streams names when it serializes each store's keys and values: the store's
   * changelog topic, which a topic-aware serde (a schema registry's, say) may write differently.
   */
  private static Map<String, String> storeTopics(ViewRegistry registry) {
    Map<String, String> topics = new HashMap<>();
    for (ResolvedView<?, ?, ?> view : registry.all()) {
      topics.put(view.storeName(), view.changelogTopic(registry.applicationId()));
    }
    return Map.copyOf(topics);
  }

  /**
   * The refusal of a read of {@code partition} whose store closed or was not served while it was
   * read, as when a rebalance moves the partition away: not a failure of the store.
   */
  public ViewUnavailableException notServing(
      ResolvedView<?, ?, ?> view,
      @Nullable Object key,
      int partition,
      InvalidStateStoreException ex) {
    return this.refusals.notServing(view, key, partition, ex);
  }

  /**
   * Refuses with 503 when this instance's replica of the partition is still restoring or catching
   * up, so that no partial state is served as current.
   */
  public void requireCaughtUp(ResolvedView<?, ?, ?> view, @Nullable Object key, int partition) {
    this.refusals.requireCaughtUp(view, key, partition);
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
      String topic = storeTopic(view);
      byte[] serialized = view.serializedKey(topic, key);
      if (handle.isUnwritten(serialized)) {
        return tableStore(view, key, partition, runningActive).get(key);
      }
      return value(view, topic, handle.get(serialized));
    } catch (InvalidStateStoreException ex) {
      throw this.refusals.notServing(view, key, partition, ex);
    }
  }

  private String storeTopic(ResolvedView<?, ?, ?> view) {
    String topic = this.storeTopics.get(view.storeName());
    if (topic == null) {
      throw new IllegalStateException(
          "View '" + view.name() + "' is not one of the views whose stores this instance reads");
    }
    return topic;
  }

  /** The aggregate in a timestamped store's value: Kafka Streams' 8-byte timestamp, then it. */
  static @Nullable Object value(
      ResolvedView<?, ?, ?> view, String topic, byte @Nullable [] stored) {
    if (stored == null) {
      return null;
    }
    return view.aggregateSerde()
        .deserializer()
        .deserialize(topic, Arrays.copyOfRange(stored, TIMESTAMP_BYTES, stored.length));
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
    return this.windows.windows(view, window, key, partition, from, to, runningActive);
  }

  /**
   * Up to {@code limit} keys of {@code partition} in [from, to] that come after {@code after}, in
   * stored key order; from a running active replica only when {@code runningActive}, else also from
   * a standby or restoring one. The partition's RocksDB is read directly while the record cache
   * holds no update it lacks; else Kafka Streams merges the cache into the range, which copies the
   * cached keys of the range on each call.
   */
  public <K> Slice<KeyItem> keys(
      ResolvedView<K, ?, ?> view,
      int partition,
      @Nullable K from,
      @Nullable K to,
      @Nullable ScanPosition after,
      int limit,
      boolean runningActive) {
    Serde<K> keySerde = view.keySerde();
    K lower =
        after != null ? keySerde.deserializer().deserialize(view.storeName(), after.key()) : from;
    ReplicaHandle handle = this.handles.handle(view.storeName(), partition);
    try (KeyValueIterator<K, Object> range =
        (handle != null
                && !handle.hasUnwritten()
                && (!runningActive || ReplicaHandle.isReady(handle.readiness())))
            ? storedRange(view, handle, lower, to)
            : tableStore(view, null, partition, runningActive).range(lower, to)) {
      return slice(view, range, after, limit);
    } catch (InvalidStateStoreException ex) {
      throw this.refusals.notServing(view, null, partition, ex);
    }
  }

  private static <K> Slice<KeyItem> slice(
      ResolvedView<K, ?, ?> view,
      KeyValueIterator<K, Object> range,
      @Nullable ScanPosition after,
      int limit) {
    Serde<K> keySerde = view.keySerde();
    List<KeyItem> items = new ArrayList<>(Math.min(limit, 1024));
    K lastKey = null;
    boolean first = true;
    while (items.size() < limit && range.hasNext()) {
      KeyValue<K, Object> next = range.next();
      boolean isAfter =
          first
              && after != null
              && Arrays.equals(
                  keySerde.serializer().serialize(view.storeName(), next.key), after.key());
      first = false;
      if (next.value == null || isAfter) {
        continue;
      }
      items.add(new KeyItem(next.key, next.value));
      lastKey = next.key;
    }
    ScanPosition last =
        (lastKey != null)
            ? new ScanPosition(keySerde.serializer().serialize(view.storeName(), lastKey), 0)
            : null;
    return new Slice<>(items, last, !range.hasNext());
  }

  /** The keys of the partition's RocksDB in [from, to], read as Kafka Streams would read them. */
  private <K> KeyValueIterator<K, Object> storedRange(
      ResolvedView<K, ?, ?> view, ReplicaHandle handle, @Nullable K from, @Nullable K to) {
    String topic = storeTopic(view);
    Bytes lower = (from != null) ? Bytes.wrap(view.serializedKey(topic, from)) : null;
    Bytes upper = (to != null) ? Bytes.wrap(view.serializedKey(topic, to)) : null;
    return new StoredEntries<>(view, topic, handle.store().range(lower, upper));
  }

  /**
   * Up to {@code limit} windows of {@code partition} whose start lies in [from, to] and that come
   * after {@code after}, ordered by stored key, then window start; from a running active replica
   * only when {@code runningActive}.
   */
  public <K> Slice<WindowItem> windowItems(
      ResolvedView<K, ?, ?> view,
      ViewWindow window,
      int partition,
      Instant from,
      Instant to,
      @Nullable ScanPosition after,
      int limit,
      boolean runningActive) {
    return this.windows.windowItems(view, window, partition, from, to, after, limit, runningActive);
  }

  /**
   * One partition of a table view's store, through the store API rather than IQv2: Kafka 4.1.2's
   * IQv2 key and range queries of RocksDB key-value stores can deadlock with the stream thread
   * (KAFKA-19629). Only a running active replica answers unless {@code runningActive} is false.
   */
  private <K> ReadOnlyKeyValueStore<K, Object> tableStore(
      ResolvedView<K, ?, ?> view, @Nullable Object key, int partition, boolean runningActive) {
    KafkaStreams kafkaStreams = this.refusals.running(view, key, partition);
    StoreQueryParameters<ReadOnlyKeyValueStore<K, Object>> parameters =
        StoreQueryParameters.fromNameAndType(
                view.storeName(), QueryableStoreTypes.<K, Object>keyValueStore())
            .withPartition(partition);
    try {
      return kafkaStreams.store(runningActive ? parameters : parameters.enableStaleStores());
    } catch (InvalidStateStoreException ex) {
      throw this.refusals.notServing(view, key, partition, ex);
    }
  }
}
