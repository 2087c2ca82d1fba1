package dev.matview.deadletter;

import java.util.Locale;
import java.util.Map;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.jspecify.annotations.Nullable;

/**
 * Sends the record whose write to a topic failed (a view's repartition topic, say, refused as too
 * large) to the dead-letter topic, and goes on; fails only when the dead letter cannot be written.
 *
 * <p>A failed write to a view's changelog topic fails instead, because the view's store already
 * holds the update that the changelog lacks and going on would let a restore silently change the
 * answer, while failing aborts the update under {@code exactly_once_v2} and stops Kafka Streams
 * with an error as when a dead letter cannot be written. Aggregates too large for the changelog do
 * not get here: the view's store refuses them before it keeps them, as dead letters with reason
 * {@code aggregate-too-large}.
 *
 * <p>Kafka Streams reports a failed write either at once, on the stream thread while the record is
 * processed, or later, from the producer's own thread when the broker refuses it; by then the
 * context may describe another record. A dead letter carries the source record as read from its
 * topic only when the context is still that of the failed record (the failure arrives on the stream
 * thread and the timestamps match); otherwise it carries the failed record as it was to be written,
 * with partition and offset -1, so that a record is never blamed for its neighbour.
 */
public final class DeadLetterProductionExceptionHandler implements ProductionExceptionHandler {

  private static final Log logger = LogFactory.getLog(DeadLetterProductionExceptionHandler.class);

  private static final String PRODUCER_THREAD = "kafka-producer-network-thread";

  private @Nullable DeadLetters deadLetters;

  @Override
  public void configure(Map<String, ?> configs) {
    this.deadLetters = DeadLetters.from(configs);
  }

  @Override
  public ProductionExceptionHandlerResponse handle(
      ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record, Exception exception) {
    ViewLocator locator = DeadLetters.configured(this.deadLetters).locator();
    if (locator.isChangelog(record.topic())) {
      logger.error(
          "Writing to changelog topic '"
              + record.topic()
              + "' of view '"
              + locator.viewWriting(record.topic())
              + "' failed, so Kafka Streams stops rather than keep a store its changelog does not"
              + " match. If the broker refused the record as too large, make the topic's"
              + " max.message.bytes at least the producer's max.request.size: "
              + exception);
      return ProductionExceptionHandlerResponse.FAIL;
    }
    return publish(context, record, record.key(), record.value(), exception);
  }

  @Override
  public ProductionExceptionHandlerResponse handleSerializationException(
      ErrorHandlerContext context,
      ProducerRecord record,
      Exception exception,
      SerializationExceptionOrigin origin) {
    Exception failure =
        new SerializationException(
            "Cannot serialize the "
                + origin.name().toLowerCase(Locale.ROOT)
                + " written to topic '"
                + record.topic()
                + "': "
                + exception.getMessage(),
            exception);
    return publish(context, record, null, null, failure);
  }

  private ProductionExceptionHandlerResponse publish(
      ErrorHandlerContext context,
      ProducerRecord<?, ?> record,
      byte @Nullable [] writtenKey,
      byte @Nullable [] writtenValue,
      Exception exception) {
    DeadLetters deadLetters = DeadLetters.configured(this.deadLetters);
    String view = deadLetters.locator().viewWriting(record.topic());
    DeadLetterReason known = DeadLetterReason.of(exception);
    DeadLetterReason reason = (known != null) ? known : DeadLetterReason.PRODUCTION;
    DeadLetter letter =
        isContextOf(context, record)
            ? DeadLetter.ofSource(view, reason, context, exception)
            : new DeadLetter(
                view,
                reason,
                record.topic(),
                -1,
                -1,
                "",
                writtenKey,
                writtenValue,
                record.headers(),
                exception);
    return deadLetters.publisher().publish(letter)
        ? ProductionExceptionHandlerResponse.CONTINUE
        : ProductionExceptionHandlerResponse.FAIL;
  }

  private static boolean isContextOf(ErrorHandlerContext context, ProducerRecord<?, ?> record) {
    Long timestamp = record.timestamp();
    return !Thread.currentThread().getName().startsWith(PRODUCER_THREAD)
        && (timestamp == null || timestamp == context.timestamp());
  }
}
