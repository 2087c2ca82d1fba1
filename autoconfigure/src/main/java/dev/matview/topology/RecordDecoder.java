package dev.matview.topology;

import java.time.Instant;
import java.util.function.Function;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.jspecify.annotations.Nullable;

/**
 * Reads a source record's value for one view and sets its event time; records that cannot be read
 * are logged and skipped.
 *
 * @param <SK> the record key type
 * @param <V> the record value type
 */
final class RecordDecoder<SK, V> implements FixedKeyProcessor<SK, byte[], V> {

  private static final Log logger = LogFactory.getLog(RecordDecoder.class);

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
      skip(context, "its value cannot be read: " + ex.getMessage());
      return;
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
        skip(context, "its event time cannot be read: " + ex);
        return;
      }
      if (time == null) {
        skip(context, "its event time is missing");
        return;
      }
      timestamp = time.toEpochMilli();
    }
    context.forward(record.withValue(value).withTimestamp(timestamp));
  }

  private void skip(FixedKeyProcessorContext<SK, V> context, String reason) {
    if (logger.isWarnEnabled()) {
      String where =
          context
              .recordMetadata()
              .map(m -> m.topic() + "-" + m.partition() + "@" + m.offset())
              .orElse("unknown position");
      logger.warn("View '" + this.view + "' skipped record " + where + " because " + reason);
    }
  }
}
