package dev.matview.deadletter;

import static dev.matview.deadletter.DeadLetterFixtures.bytes;
import static dev.matview.deadletter.DeadLetterFixtures.header;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler.DeserializationHandlerResponse;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

/** Tests for {@link DeadLetterDeserializationExceptionHandler}. */
class DeadLetterDeserializationExceptionHandlerTests {

  private final MockProducer<byte[], byte[]> producer = DeadLetterFixtures.producer();

  private final List<DeadLetter> published = new ArrayList<>();

  private final DeadLetterDeserializationExceptionHandler handler = handler();

  @Test
  void sendsOneDeadLetterForEachViewThatReadsTheTopic() {
    DeserializationHandlerResponse response =
        this.handler.handle(
            context("sales-source"),
            record("sales", 1, 12),
            new SerializationException("Cannot read key"));
    assertThat(response).isEqualTo(DeserializationHandlerResponse.CONTINUE);
    assertThat(this.producer.history())
        .extracting(letter -> header(letter.headers(), DeadLetterHeaders.VIEW))
        .containsExactly("per-shop", "per-customer");
    ProducerRecord<byte[], byte[]> letter = this.producer.history().get(0);
    assertThat(letter.key()).isEqualTo(bytes("\u0000bad key"));
    assertThat(letter.value()).isEqualTo(bytes("{}"));
    assertThat(header(letter.headers(), DeadLetterHeaders.REASON)).isEqualTo("deserialization");
    assertThat(header(letter.headers(), DeadLetterHeaders.TOPIC)).isEqualTo("sales");
    assertThat(header(letter.headers(), DeadLetterHeaders.PARTITION)).isEqualTo("1");
    assertThat(header(letter.headers(), DeadLetterHeaders.OFFSET)).isEqualTo("12");
    assertThat(header(letter.headers(), DeadLetterHeaders.PROCESSOR)).isEqualTo("sales-source");
    assertThat(header(letter.headers(), DeadLetterHeaders.EXCEPTION_CLASS))
        .isEqualTo(SerializationException.class.getName());
    assertThat(header(letter.headers(), DeadLetterHeaders.EXCEPTION_MESSAGE))
        .isEqualTo("Cannot read key");
  }

  @Test
  void sendsARecordOfARepartitionTopicForItsViewOnly() {
    this.handler.handle(
        context("per-customer-repartition-source"),
        record("shop-app-per-customer-repartition", 0, 3),
        new SerializationException());
    assertThat(this.published).extracting(DeadLetter::view).containsExactly("per-customer");
  }

  @Test
  void sendsARecordOfATopicOfNoViewOnceWithoutAViewHeader() {
    this.handler.handle(
        context("other-source"), record("other", 0, 3), new SerializationException());
    assertThat(this.producer.history())
        .singleElement()
        .satisfies(
            letter -> assertThat(letter.headers().lastHeader(DeadLetterHeaders.VIEW)).isNull());
  }

  @Test
  void failsWhenTheDeadLetterCannotBeWritten() {
    this.producer.sendException = new TimeoutException("no broker");
    assertThat(
            this.handler.handle(
                context("sales-source"), record("sales", 0, 1), new SerializationException()))
        .isEqualTo(DeserializationHandlerResponse.FAIL);
  }

  private DeadLetterDeserializationExceptionHandler handler() {
    DeadLetterDeserializationExceptionHandler handler =
        new DeadLetterDeserializationExceptionHandler();
    handler.configure(DeadLetterFixtures.configs(this.producer, this.published::add));
    return handler;
  }

  private static DeadLetterFixtures.Context context(String processor) {
    return new DeadLetterFixtures.Context(
        "unused", -1, -1, new RecordHeaders(), processor, new TaskId(0, 0), 0L, null, null);
  }

  private static ConsumerRecord<byte[], byte[]> record(String topic, int partition, long offset) {
    return new ConsumerRecord<>(
        topic,
        partition,
        offset,
        1000L,
        TimestampType.CREATE_TIME,
        8,
        2,
        bytes("\u0000bad key"),
        bytes("{}"),
        new RecordHeaders(),
        Optional.empty());
  }
}
