package dev.matview.deadletter;

import dev.matview.topology.RecordDecodingException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.jspecify.annotations.Nullable;

/**
 * A record that a view ({@code null} when the processor that failed belongs to no view) could not
 * use, with its key, value and headers as read from its topic, where it was read, and why it
 * failed.
 */
public record DeadLetter(
    @Nullable String view,
    DeadLetterReason reason,
    String topic,
    int partition,
    long offset,
    String processor,
    byte @Nullable [] key,
    byte @Nullable [] value,
    Headers headers,
    Throwable exception) {

  /**
   * A dead letter of the source record that {@code context} describes, as read from its topic, that
   * {@code view} could not use for {@code reason}.
   */
  static DeadLetter ofSource(
      @Nullable String view,
      DeadLetterReason reason,
      ErrorHandlerContext context,
      Throwable exception) {
    return new DeadLetter(
        view,
        reason,
        Objects.toString(context.topic(), ""),
        context.partition(),
        context.offset(),
        context.processorNodeId(),
        context.sourceRawKey(),
        context.sourceRawValue(),
        context.headers(),
        exception);
  }

  /**
   * The exception to report: the cause of a {@link RecordDecodingException}, else the exception.
   */
  public Throwable cause() {
    Throwable cause = this.exception.getCause();
    return (this.exception instanceof RecordDecodingException && cause != null)
        ? cause
        : this.exception;
  }

  /** The record to write to {@code deadLetterTopic}: key, value and headers, plus Matview's. */
  public ProducerRecord<byte[], byte[]> toRecord(String deadLetterTopic) {
    Headers headers = new RecordHeaders(this.headers.toArray());
    if (this.view != null) {
      add(headers, DeadLetterHeaders.VIEW, this.view);
    }
    add(headers, DeadLetterHeaders.REASON, this.reason.tag());
    add(headers, DeadLetterHeaders.TOPIC, this.topic);
    add(headers, DeadLetterHeaders.PARTITION, Integer.toString(this.partition));
    add(headers, DeadLetterHeaders.OFFSET, Long.toString(this.offset));
    add(headers, DeadLetterHeaders.PROCESSOR, this.processor);
    Throwable cause = cause();
    add(headers, DeadLetterHeaders.EXCEPTION_CLASS, cause.getClass().getName());
    String message = cause.getMessage();
    add(
        headers,
        DeadLetterHeaders.EXCEPTION_MESSAGE,
        DeadLetterSizer.shorten(message != null ? message : ""));
    return new ProducerRecord<>(deadLetterTopic, null, null, this.key, this.value, headers);
  }

  /** Where the record was read, as {@code topic-partition@offset}. */
  public String position() {
    return this.topic + "-" + this.partition + "@" + this.offset;
  }

  private static void add(Headers headers, String name, String value) {
    headers.remove(name);
    headers.add(name, value.getBytes(StandardCharsets.UTF_8));
  }
}
