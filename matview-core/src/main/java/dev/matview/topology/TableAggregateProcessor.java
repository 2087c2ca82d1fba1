package dev.matview.topology;

import dev.matview.replica.ReplicaHandle;
import dev.matview.replica.StoreChange;
import dev.matview.replica.StoreHandles;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.TimestampedKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

/**
 * Folds a table view's records into its store, as Kafka Streams' own aggregation does (the
 * initializer for a new key, the record's timestamp or the stored one if later), through Kafka's
 * record cache, which writes a key's updates between two commits to RocksDB and the changelog once.
 *
 * <p>Around each update it keeps, the {@link StoreAggregation} serializes and checks it and tells
 * the change feed, and the store is given those bytes ({@link SerializedAggregate}); just before,
 * the processor tells the partition's {@link ReplicaHandle} that RocksDB lacks it, so that lookups
 * read the key through the cache until it is written.
 */
final class TableAggregateProcessor<K, V, A>
    extends AggregateProcessor<
        K, V, A, TimestampedKeyValueStore<K, Object>, ReplicaHandle, Void, Void> {

  TableAggregateProcessor(StoreAggregation<K, V, A> aggregation) {
    super(aggregation, StoreHandles::handle);
  }

  @Override
  void aggregate(Record<K, V> record, K key, V value, TimestampedKeyValueStore<K, Object> store) {
    ValueAndTimestamp<Object> previous = store.get(key);
    long timestamp = StoreAggregation.updatedAt(record.timestamp(), previous);
    A updated = this.aggregation.added(key, value, previous);
    byte[] keyBytes = this.aggregation.key(key);
    byte[] valueBytes = this.aggregation.serialized(keyBytes, updated);
    ReplicaHandle open = handle();
    if (open != null) {
      open.cached(keyBytes);
    }
    store.put(key, ValueAndTimestamp.make(SerializedAggregate.of(valueBytes), timestamp));
    this.aggregation.kept(
        keyBytes, timestamp, valueBytes, StoreChange.NO_WINDOW, StoreChange.NO_WINDOW);
  }
}
