package dev.matview.topology;

import java.time.Instant;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.jspecify.annotations.Nullable;

/**
 * Reads a source record's value for one view and sets its event time; a record that cannot be read
 * raises a {@link RecordDecodingException}.
 *
 * @param <SK> the record key type
 * @param <V> the record value type
 */
final class RecordDecoder<SK, V> implements FixedKeyProcessor<SK, byte[], V> {

  private final String view;

  private final Deserializer<V> deserializer;

  private final @Nullable Function<? super V, ? extends @Nullable Instant> eventTime;

  private @Nullable FixedKeyProcessorContext<SK, V> context;

  RecordDecoder(
      String view,
      Deserializer<V> deserializer,
      @Nullable Function<? super V, ? extends @Nullable Instant> eventTime) {
    this.view = view;
    this.deserializer = deserializer;
    this.eventTime = eventTime;
  }

  @Override
  public void init(FixedKeyProcessorContext<SK, V> context) {
    this.context = context;
  }

  @Override
  public void process(FixedKeyRecord<SK, byte[]> record) {
    FixedKeyProcessorContext<SK, V> context = this.context;
    if (context == null || record.value() == null) {
      return;
    }
    String topic = context.recordMetadata().map(RecordMetadata::topic).orElse("");
    V value;
    try {
      value = this.deserializer.deserialize(topic, record.headers(), record.value());
    } catch (RuntimeException ex) {
      throw RecordDecodingException.unreadableValue(this.view, ex);
    }
    if (value == null) {
      return;
    }
    long timestamp = record.timestamp();
    if (this.eventTime != null) {
      Instant time;
      try {
        time = this.eventTime.apply(value);
      } catch (RuntimeException ex) {
        throw RecordDecodingException.unreadableEventTime(this.view, ex);
      }
      if (time == null) {
        throw RecordDecodingException.missingEventTime(this.view);
      }
      timestamp = time.toEpochMilli();
    }
    context.forward(record.withValue(value).withTimestamp(timestamp));
  }
}
