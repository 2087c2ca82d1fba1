package dev.matview.topology;

import dev.matview.replica.ReplicaHandle;
import dev.matview.replica.StoreChange;
import java.util.Objects;
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
 * <p>Around each update it keeps, the {@link StoreAggregation} serialize and check it and tell the
 * change feed, and the store is given those bytes ({@link SerializedAggregate}); just before, the
 * processor tells the partition's {@link ReplicaHandle} that RocksDB lacks it, so that lookups read
 * the key through the cache until it is written.
 *
 * @param <K> the view's key type
 * @param <V> the record value type
 * @param <A> the aggregate type
 */
final class TableAggregateProcessor<K, V, A> implements Processor<K, V, Void, Void> {

  private final StoreAggregation<K, V, A> aggregation;

  private @Nullable TimestampedKeyValueStore<K, Object> store;

  private @Nullable ReplicaHandle handle;

  TableAggregateProcessor(StoreAggregation<K, V, A> aggregation) {
    this.aggregation = aggregation;
  }

  @Override
  public void init(ProcessorContext<Void, Void> context) {
    this.store = this.aggregation.init(context);
    this.handle =
        this.aggregation
            .handles()
            .handle(this.aggregation.storeName(), context.taskId().partition());
  }

  @Override
  public void process(Record<K, V> record) {
    K key = record.key();
    V value = record.value();
    if (key == null || value == null) {
      return;
    }
    TimestampedKeyValueStore<K, Object> kept =
        Objects.requireNonNull(this.store, "not initialized");
    ValueAndTimestamp<Object> previous = kept.get(key);
    long timestamp = StoreAggregation.updatedAt(record.timestamp(), previous);
    A updated = this.aggregation.added(key, value, previous);
    byte[] keyBytes = this.aggregation.key(key);
    byte[] valueBytes = this.aggregation.serialized(keyBytes, updated);
    ReplicaHandle open = this.handle;
    if (open != null) {
      open.cached(keyBytes);
    }
    kept.put(key, ValueAndTimestamp.make(SerializedAggregate.of(valueBytes), timestamp));
    this.aggregation.kept(
        keyBytes, timestamp, valueBytes, StoreChange.NO_WINDOW, StoreChange.NO_WINDOW);
  }
}
