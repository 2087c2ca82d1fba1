package dev.matview.deadletter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.jspecify.annotations.Nullable;

/**
 * Sends a record whose key or value Kafka Streams cannot deserialize to the dead-letter topic, one
 * dead letter for each view that reads its topic, and goes on; fails only when a dead letter cannot
 * be written.
 */
public final class DeadLetterDeserializationExceptionHandler
    implements DeserializationExceptionHandler {

  private @Nullable DeadLetters deadLetters;

  @Override
  public void configure(Map<String, ?> configs) {
    this.deadLetters = DeadLetters.from(configs);
  }

  @Override
  public DeserializationHandlerResponse handle(
      ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record, Exception exception) {
    DeadLetters deadLetters = DeadLetters.configured(this.deadLetters);
    List<@Nullable String> views =
        new ArrayList<>(deadLetters.locator().viewsReading(record.topic()));
    if (views.isEmpty()) {
      views.add(null);
    }
    for (@Nullable String view : views) {
      DeadLetter letter =
          new DeadLetter(
              view,
              DeadLetterReason.DESERIALIZATION,
              record.topic(),
              record.partition(),
              record.offset(),
              context.processorNodeId(),
              record.key(),
              record.value(),
              record.headers(),
              exception);
      if (!deadLetters.publisher().publish(letter)) {
        return DeserializationHandlerResponse.FAIL;
      }
    }
    return DeserializationHandlerResponse.CONTINUE;
  }
}
