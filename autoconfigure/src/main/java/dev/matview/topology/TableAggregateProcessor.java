package dev.matview.topology;

import dev.matview.replica.AppliedOffset;
import dev.matview.replica.ChangelogSizeCheck;
import dev.matview.replica.ReplicaHandle;
import dev.matview.replica.StoreChange;
import dev.matview.replica.StoreHandles;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.kstream.Aggregator;
import org.apache.kafka.streams.kstream.Initializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.TimestampedKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.jspecify.annotations.Nullable;

/**
 * Folds a table view's records into its store, as Kafka Streams' own aggregation does (the
 * initializer for a new key, the record's timestamp or the stored one if later), through Kafka's
 * record cache, which writes a key's updates between two commits to RocksDB and the changelog once.
 *
 * <p>Before the cache keeps an update, the processor serializes it once (the store takes the bytes
 * from the {@link RememberingSerializer}), refuses one too large for the changelog, tells the
 * partition's {@link ReplicaHandle} that RocksDB lacks it, so that lookups read the key through the
 * cache until it is written, and after it tells the partition's change feed, so that change streams
 * hear every update and not only the one a commit writes.
 *
 * @param <K> the view's key type
 * @param <V> the record value type
 * @param <A> the aggregate type
 */
final class TableAggregateProcessor<K, V, A> implements Processor<K, V, Void, Void> {

  private final ResolvedView<K, V, A> view;

  private final Initializer<A> initializer;

  private final Aggregator<? super K, ? super V, A> aggregator;

  private final ChangelogSizeCheck sizeCheck;

  private final StoreHandles handles;

  private final Serializer<K> keySerializer;

  private final RememberingSerializer<A> aggregateSerializer;

  private @Nullable TimestampedKeyValueStore<K, A> store;

  private String changelogTopic = "";

  private @Nullable ReplicaHandle handle;

  private @Nullable AppliedOffset applied;

  TableAggregateProcessor(
      ResolvedView<K, V, A> view,
      Initializer<A> initializer,
      Aggregator<? super K, ? super V, A> aggregator,
      RememberingSerializer<A> aggregateSerializer,
      ChangelogSizeCheck sizeCheck,
      StoreHandles handles) {
    this.view = view;
    this.initializer = initializer;
    this.aggregator = aggregator;
    this.aggregateSerializer = aggregateSerializer;
    this.sizeCheck = sizeCheck;
    this.handles = handles;
    this.keySerializer = view.keySerde().serializer();
  }

  @Override
  public void init(ProcessorContext<Void, Void> context) {
    String storeName = this.view.storeName();
    this.store = context.getStateStore(storeName);
    this.changelogTopic = this.view.changelogTopic(context.applicationId());
    int partition = context.taskId().partition();
    this.handle = this.handles.handle(storeName, partition);
    this.applied = this.handles.positions().of(storeName, partition);
  }

  @Override
  public void process(Record<K, V> record) {
    K key = record.key();
    V value = record.value();
    if (key == null || value == null) {
      return;
    }
    TimestampedKeyValueStore<K, A> kept = Objects.requireNonNull(this.store, "not initialized");
    ValueAndTimestamp<A> previous = kept.get(key);
    A aggregate = (previous != null) ? previous.value() : this.initializer.apply();
    long timestamp =
        (previous != null)
            ? Math.max(record.timestamp(), previous.timestamp())
            : record.timestamp();
    A updated = this.aggregator.apply(key, value, aggregate);
    byte[] keyBytes = serializedKey(key);
    byte[] valueBytes =
        (updated != null)
            ? this.aggregateSerializer.serializeAndRemember(this.changelogTopic, updated)
            : null;
    if (valueBytes != null) {
      this.sizeCheck.check(keyBytes.length, valueBytes.length);
    }
    ReplicaHandle open = this.handle;
    if (open != null) {
      open.cached(keyBytes);
    }
    kept.put(key, ValueAndTimestamp.make(updated, timestamp));
    AppliedOffset offset = this.applied;
    if (offset != null && offset.changes().isFollowed()) {
      offset.updated(
          keyBytes, stored(timestamp, valueBytes), StoreChange.NO_WINDOW, StoreChange.NO_WINDOW);
    }
  }

  private byte[] serializedKey(K key) {
    byte[] bytes = this.keySerializer.serialize(this.changelogTopic, key);
    if (bytes == null) {
      throw new IllegalStateException("View '" + this.view.name() + "' serialized a key as null");
    }
    return bytes;
  }

  /** The value as the store keeps it: Kafka Streams' 8-byte timestamp, then the aggregate. */
  private static byte @Nullable [] stored(long timestamp, byte @Nullable [] aggregate) {
    if (aggregate == null) {
      return null;
    }
    return ByteBuffer.allocate(Long.BYTES + aggregate.length)
        .putLong(timestamp)
        .put(aggregate)
        .array();
  }
}
