package dev.matview.topology;

import dev.matview.replica.AppliedOffset;
import dev.matview.replica.StorePositions;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.processor.api.ContextualFixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.jspecify.annotations.Nullable;

/**
 * Sits in front of everything a view does with a record of the topic that feeds its store and tells
 * the store partition's {@link AppliedOffset} when the record's processing begins and when it has
 * ended: forwarding runs the view's steps for the record, the store's update included, before it
 * returns. A record the view drops counts as processed, as one it aggregates does. Of a re-keyed
 * view it also tells which source record each record came from.
 */
final class AppliedOffsetTracker<K, V> extends ContextualFixedKeyProcessor<K, V, V> {

  private final StorePositions positions;

  private final String storeName;

  private final boolean rekeyed;

  private @Nullable AppliedOffset applied;

  /**
   * A tracker for the store {@code storeName}; of a {@code rekeyed} view, whose records name their
   * source record in an {@link InputOffsetHeader}.
   */
  AppliedOffsetTracker(StorePositions positions, String storeName, boolean rekeyed) {
    this.positions = positions;
    this.storeName = storeName;
    this.rekeyed = rekeyed;
  }

  @Override
  public void process(FixedKeyRecord<K, V> record) {
    FixedKeyProcessorContext<K, V> context = context();
    RecordMetadata metadata = context.recordMetadata().orElse(null);
    AppliedOffset offset = (metadata != null) ? offset(context) : null;
    if (metadata == null || offset == null) {
      context.forward(record);
      return;
    }
    Header input = this.rekeyed ? record.headers().lastHeader(InputOffsetHeader.KEY) : null;
    offset.begin(metadata.offset());
    context.forward(record);
    int inputPartition = InputOffsetHeader.partition(input);
    if (input != null && inputPartition >= 0) {
      offset.inputApplied(inputPartition, InputOffsetHeader.offset(input));
    }
    offset.complete(metadata.offset());
  }

  /** The open store partition of this task; Kafka Streams opens a task's stores before it runs. */
  private @Nullable AppliedOffset offset(FixedKeyProcessorContext<K, V> context) {
    AppliedOffset known = this.applied;
    if (known == null || known.isClosed()) {
      known = this.positions.of(this.storeName, context.taskId().partition());
      this.applied = known;
    }
    return known;
  }
}
