package dev.matview.topology;

import java.time.Instant;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.ContextualFixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.jspecify.annotations.Nullable;

/**
 * Reads a source record's value for one view and sets its event time, before anything is written to
 * an internal topic; a record that the view cannot use raises a {@link RecordDecodingException},
 * and a tombstone is counted and left out. It forwards what {@code output} makes of the value and
 * the bytes it was read from: the value alone, or both for a view whose records cross a repartition
 * topic as the bytes they came in.
 */
final class RecordDecoder<SK, V, O> extends ContextualFixedKeyProcessor<SK, byte[], O> {

  private final String view;

  private final Deserializer<V> deserializer;

  private final @Nullable Function<? super V, ? extends @Nullable Instant> eventTime;

  private final boolean groupedByRecordKey;

  private final EventTimeBounds bounds;

  private final RecordDrops drops;

  private final BiFunction<V, byte[], O> output;

  RecordDecoder(
      String view,
      Deserializer<V> deserializer,
      @Nullable Function<? super V, ? extends @Nullable Instant> eventTime,
      boolean groupedByRecordKey,
      EventTimeBounds bounds,
      RecordDrops drops,
      BiFunction<V, byte[], O> output) {
    this.view = view;
    this.deserializer = deserializer;
    this.eventTime = eventTime;
    this.groupedByRecordKey = groupedByRecordKey;
    this.bounds = bounds;
    this.drops = drops;
    this.output = output;
  }

  @Override
  public void process(FixedKeyRecord<SK, byte[]> record) {
    byte[] bytes = record.value();
    if (bytes == null) {
      this.drops.dropped(this.view, RecordDrops.TOMBSTONE);
      return;
    }
    FixedKeyProcessorContext<SK, O> context = context();
    V value = readValue(this.view, this.deserializer, context, record);
    if (this.groupedByRecordKey && record.key() == null) {
      throw RecordDecodingException.nullKey(this.view, false);
    }
    Instant now = this.bounds.clock().instant();
    long timestamp = (this.eventTime != null) ? eventTime(value, now) : record.timestamp();
    if (!this.bounds.accepts(timestamp, now)) {
      throw RecordDecodingException.eventTimeOutOfRange(
          this.view, timestamp, now, this.bounds.maxAhead());
    }
    context.forward(record.withValue(this.output.apply(value, bytes)).withTimestamp(timestamp));
  }

  /**
   * The value of {@code record}, as {@code view}'s {@code deserializer} reads it from the topic
   * that {@code context} is processing; one that cannot be read, or reads as null, raises a {@link
   * RecordDecodingException}.
   */
  static <V> V readValue(
      String view,
      Deserializer<V> deserializer,
      FixedKeyProcessorContext<?, ?> context,
      FixedKeyRecord<?, byte[]> record) {
    String topic = context.recordMetadata().map(RecordMetadata::topic).orElse("");
    V value;
    try {
      value = deserializer.deserialize(topic, record.headers(), record.value());
    } catch (RuntimeException ex) {
      throw RecordDecodingException.unreadableValue(view, ex);
    }
    if (value == null) {
      throw RecordDecodingException.nullValue(view);
    }
    return value;
  }

  /** The event time read from {@code value}, in epoch milliseconds, checked against the bounds. */
  private long eventTime(V value, Instant now) {
    Function<? super V, ? extends @Nullable Instant> eventTime = this.eventTime;
    Instant time;
    try {
      time = (eventTime != null) ? eventTime.apply(value) : null;
    } catch (RuntimeException ex) {
      throw RecordDecodingException.unreadableEventTime(this.view, ex);
    }
    if (time == null) {
      throw RecordDecodingException.missingEventTime(this.view);
    }
    try {
      return time.toEpochMilli();
    } catch (ArithmeticException ex) {
      throw RecordDecodingException.eventTimeOutOfRange(
          this.view, time.toString(), now, this.bounds.maxAhead());
    }
  }
}
