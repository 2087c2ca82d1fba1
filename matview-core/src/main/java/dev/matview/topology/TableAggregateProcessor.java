package dev.matview.topology;

import dev.matview.replica.ReplicaHandle;
import dev.matview.replica.StoreChange;
import dev.matview.replica.StoreHandles;
import java.util.Objects;
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
 * <p>Around each update it keeps, the {@link AggregateUpdates} serialize and check it and tell the
 * change feed, and the store is given those bytes ({@link SerializedAggregate}); just before, the
 * processor tells the partition's {@link ReplicaHandle} that RocksDB lacks it, so that lookups read
 * the key through the cache until it is written.
 *
 * @param <K> the view's key type
 * @param <V> the record value type
 * @param <A> the aggregate type
 */
final class TableAggregateProcessor<K, V, A> implements Processor<K, V, Void, Void> {

  private final ResolvedView<K, V, A> view;

  private final Initializer<A> initializer;

  private final Aggregator<? super K, ? super V, A> aggregator;

  private final AggregateUpdates<A> updates;

  private final StoreHandles handles;

  private @Nullable TimestampedKeyValueStore<K, Object> store;

  private @Nullable ReplicaHandle handle;

  TableAggregateProcessor(
      ResolvedView<K, V, A> view,
      Initializer<A> initializer,
      Aggregator<? super K, ? super V, A> aggregator,
      AggregateUpdates<A> updates,
      StoreHandles handles) {
    this.view = view;
    this.initializer = initializer;
    this.aggregator = aggregator;
    this.updates = updates;
    this.handles = handles;
  }

  @Override
  public void init(ProcessorContext<Void, Void> context) {
    this.store = context.getStateStore(this.view.storeName());
    this.handle = this.handles.handle(this.view.storeName(), context.taskId().partition());
    this.updates.init(context, this.handles.positions());
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
    A aggregate =
        (previous != null)
            ? SerializedAggregate.aggregate(previous.value())
            : this.initializer.apply();
    long timestamp =
        (previous != null)
            ? Math.max(record.timestamp(), previous.timestamp())
            : record.timestamp();
    A updated = this.aggregator.apply(key, value, aggregate);
    byte[] keyBytes = this.view.serializedKey(this.updates.changelogTopic(), key);
    byte[] valueBytes = this.updates.serialized(keyBytes, updated);
    ReplicaHandle open = this.handle;
    if (open != null) {
      open.cached(keyBytes);
    }
    kept.put(key, ValueAndTimestamp.make(SerializedAggregate.of(valueBytes), timestamp));
    this.updates.kept(
        keyBytes, timestamp, valueBytes, StoreChange.NO_WINDOW, StoreChange.NO_WINDOW);
  }
}
