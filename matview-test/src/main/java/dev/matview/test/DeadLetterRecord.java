package dev.matview.test;

import dev.matview.deadletter.DeadLetterHeaders;
import dev.matview.deadletter.DeadLetterReason;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.jspecify.annotations.Nullable;

/**
 * A record written to the dead-letter topic: the key, value and headers of a record a view could
 * not use, with Matview's headers ({@link DeadLetterHeaders}) that say which view and why.
 */
public final class DeadLetterRecord {

  private final ProducerRecord<byte[], byte[]> record;

  DeadLetterRecord(ProducerRecord<byte[], byte[]> record) {
    this.record = record;
  }

  /** The dead-letter topic, {@code <application-id>-dlq}. */
  public String topic() {
    return this.record.topic();
  }

  /** The record's key as read from its topic. */
  public byte @Nullable [] key() {
    return this.record.key();
  }

  /** The record's value as read from its topic. */
  public byte @Nullable [] value() {
    return this.record.value();
  }

  /** The record's value as UTF-8 text, or {@code null} for a tombstone. */
  public @Nullable String valueAsString() {
    byte[] value = this.record.value();
    return (value != null) ? new String(value, StandardCharsets.UTF_8) : null;
  }

  /** The record's own headers followed by Matview's. */
  public Headers headers() {
    return this.record.headers();
  }

  /** The last header named {@code name} as UTF-8 text, or {@code null} when there is none. */
  public @Nullable String header(String name) {
    Header header = this.record.headers().lastHeader(name);
    return (header != null && header.value() != null)
        ? new String(header.value(), StandardCharsets.UTF_8)
        : null;
  }

  /** The view that could not use the record, or {@code null} when no view's processor failed. */
  public @Nullable String view() {
    return header(DeadLetterHeaders.VIEW);
  }

  /** Why the view could not use the record. */
  public DeadLetterReason reason() {
    String tag = required(DeadLetterHeaders.REASON);
    for (DeadLetterReason reason : DeadLetterReason.values()) {
      if (reason.tag().equals(tag)) {
        return reason;
      }
    }
    throw new IllegalStateException("Unknown dead-letter reason '" + tag + "' in " + this);
  }

  /** The topic the record was read from: a source topic, or a re-keyed view's repartition topic. */
  public String sourceTopic() {
    return required(DeadLetterHeaders.TOPIC);
  }

  /** The record's offset in that topic's partition. */
  public long sourceOffset() {
    return Long.parseLong(required(DeadLetterHeaders.OFFSET));
  }

  /** The Kafka Streams processor that failed, such as {@code orders-per-customer-aggregate}. */
  public String processor() {
    return required(DeadLetterHeaders.PROCESSOR);
  }

  /** The message of the exception that made the record unusable, empty when it had none. */
  public String exceptionMessage() {
    return required(DeadLetterHeaders.EXCEPTION_MESSAGE);
  }

  private String required(String name) {
    return Objects.requireNonNull(header(name), () -> "No header " + name + " in " + this);
  }

  @Override
  public String toString() {
    return "DeadLetterRecord[view="
        + view()
        + ", reason="
        + header(DeadLetterHeaders.REASON)
        + ", source="
        + header(DeadLetterHeaders.TOPIC)
        + "@"
        + header(DeadLetterHeaders.OFFSET)
        + ", value="
        + valueAsString()
        + ", exception="
        + header(DeadLetterHeaders.EXCEPTION_MESSAGE)
        + "]";
  }
}
