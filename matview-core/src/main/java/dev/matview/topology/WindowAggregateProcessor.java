package dev.matview.topology;

import dev.matview.replica.StoreHandles;
import dev.matview.replica.WindowHandle;
import java.util.Map;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Window;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.TimestampedWindowStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

/**
 * Folds a time-windowed view's records into its store, as Kafka Streams' own windowed aggregation
 * does (each window of the record that is still open at the largest event time this task has seen,
 * less grace; the initializer for a new window; the record's timestamp or the stored one if later),
 * through Kafka's record cache, which writes a window's updates between two commits to RocksDB and
 * the changelog once.
 *
 * <p>Around each update it keeps, the {@link StoreAggregation} serializes and checks it and tells
 * the change feed, and the store is given those bytes ({@link SerializedAggregate}); just before,
 * the processor tells the partition's {@link WindowHandle} that RocksDB lacks the window, so that
 * reads of the key go through the cache until it is written.
 */
final class WindowAggregateProcessor<K, V, A>
    extends AggregateProcessor<
        K, V, A, TimestampedWindowStore<K, Object>, WindowHandle<?>, Void, Void> {

  private final TimeWindows windows;

  WindowAggregateProcessor(StoreAggregation<K, V, A> aggregation, TimeWindows windows) {
    super(aggregation, StoreHandles::windowHandle);
    this.windows = windows;
  }

  @Override
  void aggregate(Record<K, V> record, K key, V value, TimestampedWindowStore<K, Object> store) {
    long timestamp = record.timestamp();
    long streamTime = streamTimeWith(timestamp);
    long closeTime = streamTime - this.windows.gracePeriodMs();
    byte[] keyBytes = null;
    Map<Long, ? extends Window> all = this.windows.windowsFor(timestamp);
    for (Map.Entry<Long, ? extends Window> window : all.entrySet()) {
      if (window.getValue().end() > closeTime) {
        if (keyBytes == null) {
          keyBytes = this.aggregation.key(key);
        }
        update(store, key, keyBytes, value, timestamp, window.getKey(), window.getValue().end());
      }
    }
  }

  private void update(
      TimestampedWindowStore<K, Object> store,
      K key,
      byte[] keyBytes,
      V value,
      long timestamp,
      long start,
      long end) {
    ValueAndTimestamp<Object> previous = store.fetch(key, start);
    long updatedAt = StoreAggregation.updatedAt(timestamp, previous);
    byte[] valueBytes =
        this.aggregation.serialized(keyBytes, this.aggregation.added(key, value, previous));
    WindowHandle<?> open = handle();
    if (open != null) {
      open.cached(keyBytes, start, end);
    }
    store.put(key, ValueAndTimestamp.make(SerializedAggregate.of(valueBytes), updatedAt), start);
    this.aggregation.kept(keyBytes, updatedAt, valueBytes, start, end);
  }
}
