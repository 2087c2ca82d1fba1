package dev.matview.topology;

import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.jspecify.annotations.Nullable;

/**
 * A processor that folds a view's records into one partition of its store with the view's {@link
 * StoreAggregation}: what the table, window and session aggregations share. It opens the
 * partition's store and handle, and passes over a record without a key or a value, as Kafka
 * Streams' own aggregations do.
 */
abstract class AggregateProcessor<K, V, A, S extends StateStore, H, KO, VO>
    implements Processor<K, V, KO, VO> {

  /** The view's aggregation into the partition. */
  final StoreAggregation<K, V, A> aggregation;

  private final StoreAggregation.HandleLookup<H> handles;

  private @Nullable ProcessorContext<KO, VO> context;

  private @Nullable S store;

  private @Nullable H handle;

  private long streamTime = ConsumerRecord.NO_TIMESTAMP;

  /** A processor of {@code aggregation}, whose partition's handle {@code handles} finds. */
  AggregateProcessor(
      StoreAggregation<K, V, A> aggregation, StoreAggregation.HandleLookup<H> handles) {
    this.aggregation = aggregation;
    this.handles = handles;
  }

  @Override
  public final void init(ProcessorContext<KO, VO> context) {
    this.context = context;
    this.store = this.aggregation.init(context);
    this.handle = this.aggregation.handle(this.handles);
    this.streamTime = context.currentStreamTimeMs();
  }

  @Override
  public final void process(Record<K, V> record) {
    K key = record.key();
    V value = record.value();
    if (key != null && value != null) {
      aggregate(record, key, value, Objects.requireNonNull(this.store, "not initialized"));
    }
  }

  /** Folds {@code record}, whose key is {@code key} and value {@code value}, into {@code store}. */
  abstract void aggregate(Record<K, V> record, K key, V value, S store);

  /**
   * Stream time once {@code timestamp} is seen: the largest event time of the task, from the
   * partition time it last committed when it started (a task that starts again after a failure
   * closes the windows it had closed), then of each record.
   */
  final long streamTimeWith(long timestamp) {
    this.streamTime = Math.max(this.streamTime, timestamp);
    return this.streamTime;
  }

  /** The handle of the partition, which the processor marks before each update it keeps. */
  final @Nullable H handle() {
    return this.handle;
  }

  /** The context of the processor's task. */
  final ProcessorContext<KO, VO> context() {
    return Objects.requireNonNull(this.context, "not initialized");
  }
}
