package dev.matview.topology;

import dev.matview.replica.StoreHandles;
import dev.matview.replica.WindowHandle;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.kstream.Aggregator;
import org.apache.kafka.streams.kstream.Initializer;
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
 * <p>Around each update it keeps, the {@link AggregateUpdates} serialize and check it and tell the
 * change feed, and the store is given those bytes ({@link SerializedAggregate}); just before, the
 * processor tells the partition's {@link WindowHandle} that RocksDB lacks the window, so that reads
 * of the key go through the cache until it is written.
 *
 * @param <K> the view's key type
 * @param <V> the record value type
 * @param <A> the aggregate type
 */
final class WindowAggregateProcessor<K, V, A> implements Processor<K, V, Void, Void> {

  private final ResolvedView<K, V, A> view;

  private final TimeWindows windows;

  private final Initializer<A> initializer;

  private final Aggregator<? super K, ? super V, A> aggregator;

  private final AggregateUpdates<A> updates;

  private final StoreHandles handles;

  private long streamTime = ConsumerRecord.NO_TIMESTAMP;

  private @Nullable TimestampedWindowStore<K, Object> store;

  private @Nullable WindowHandle<?> handle;

  WindowAggregateProcessor(
      ResolvedView<K, V, A> view,
      TimeWindows windows,
      Initializer<A> initializer,
      Aggregator<? super K, ? super V, A> aggregator,
      AggregateUpdates<A> updates,
      StoreHandles handles) {
    this.view = view;
    this.windows = windows;
    this.initializer = initializer;
    this.aggregator = aggregator;
    this.updates = updates;
    this.handles = handles;
  }

  @Override
  public void init(ProcessorContext<Void, Void> context) {
    this.store = context.getStateStore(this.view.storeName());
    this.handle = this.handles.windowHandle(this.view.storeName(), context.taskId().partition());
    this.updates.init(context, this.handles.positions());
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
          keyBytes = this.view.serializedKey(this.updates.changelogTopic(), key);
        }
        update(key, keyBytes, value, timestamp, window.getKey(), window.getValue().end());
      }
    }
  }

  private void update(K key, byte[] keyBytes, V value, long timestamp, long start, long end) {
    TimestampedWindowStore<K, Object> kept = Objects.requireNonNull(this.store, "not initialized");
    ValueAndTimestamp<Object> previous = kept.fetch(key, start);
    A aggregate =
        (previous != null)
            ? SerializedAggregate.aggregate(previous.value())
            : this.initializer.apply();
    long updatedAt = (previous != null) ? Math.max(timestamp, previous.timestamp()) : timestamp;
    A updated = this.aggregator.apply(key, value, aggregate);
    byte[] valueBytes = this.updates.serialized(keyBytes, updated);
    WindowHandle<?> open = this.handle;
    if (open != null) {
      open.cached(keyBytes, start, end);
    }
    kept.put(key, ValueAndTimestamp.make(SerializedAggregate.of(valueBytes), updatedAt), start);
    this.updates.kept(keyBytes, updatedAt, valueBytes, start, end);
  }
}
