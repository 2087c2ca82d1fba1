package dev.matview.topology;

import dev.matview.replica.WindowHandle;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Window;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.TimestampedWindowStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.jspecify.annotations.Nullable;

/**
 * Folds a time-windowed view's records into its store, as Kafka Streams' own windowed aggregation
 * does (each window of the record that is still open at the largest event time this task has seen,
 * less grace; the initializer for a new window; the record's timestamp or the stored one if later),
 * through Kafka's record cache, which writes a window's updates between two commits to RocksDB and
 * the changelog once.
 *
 * <p>Around each update it keeps, the {@link StoreAggregation} serialize and check it and tell the
 * change feed, and the store is given those bytes ({@link SerializedAggregate}); just before, the
 * processor tells the partition's {@link WindowHandle} that RocksDB lacks the window, so that reads
 * of the key go through the cache until it is written.
 *
 * @param <K> the view's key type
 * @param <V> the record value type
 * @param <A> the aggregate type
 */
final class WindowAggregateProcessor<K, V, A> implements Processor<K, V, Void, Void> {

  private final StoreAggregation<K, V, A> aggregation;

  private final TimeWindows windows;

  private long streamTime = ConsumerRecord.NO_TIMESTAMP;

  private @Nullable TimestampedWindowStore<K, Object> store;

  private @Nullable WindowHandle<?> handle;

  WindowAggregateProcessor(StoreAggregation<K, V, A> aggregation, TimeWindows windows) {
    this.aggregation = aggregation;
    this.windows = windows;
  }

  @Override
  public void init(ProcessorContext<Void, Void> context) {
    this.store = this.aggregation.init(context);
    this.handle =
        this.aggregation
            .handles()
            .windowHandle(this.aggregation.storeName(), context.taskId().partition());
  }

  @Override
  public void process(Record<K, V> record) {
    K key = record.key();
    V value = record.value();
    if (key == null || value == null) {
      return;
    }
    long timestamp = record.timestamp();
    this.streamTime = Math.max(this.streamTime, timestamp);
    long closeTime = this.streamTime - this.windows.gracePeriodMs();
    byte[] keyBytes = null;
    Map<Long, ? extends Window> all = this.windows.windowsFor(timestamp);
    for (Map.Entry<Long, ? extends Window> window : all.entrySet()) {
      if (window.getValue().end() > closeTime) {
        if (keyBytes == null) {
          keyBytes = this.aggregation.key(key);
        }
        update(key, keyBytes, value, timestamp, window.getKey(), window.getValue().end());
      }
    }
  }

  private void update(K key, byte[] keyBytes, V value, long timestamp, long start, long end) {
    TimestampedWindowStore<K, Object> kept = Objects.requireNonNull(this.store, "not initialized");
    ValueAndTimestamp<Object> previous = kept.fetch(key, start);
    long updatedAt = StoreAggregation.updatedAt(timestamp, previous);
    byte[] valueBytes =
        this.aggregation.serialized(keyBytes, this.aggregation.added(key, value, previous));
    WindowHandle<?> open = this.handle;
    if (open != null) {
      open.cached(keyBytes, start, end);
    }
    kept.put(key, ValueAndTimestamp.make(SerializedAggregate.of(valueBytes), updatedAt), start);
    this.aggregation.kept(keyBytes, updatedAt, valueBytes, start, end);
  }
}
