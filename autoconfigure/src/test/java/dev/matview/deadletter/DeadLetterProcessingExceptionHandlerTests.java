package dev.matview.deadletter;

import static dev.matview.deadletter.DeadLetterFixtures.bytes;
import static dev.matview.deadletter.DeadLetterFixtures.header;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;

import dev.matview.topology.RecordDecodingException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler.ProcessingHandlerResponse;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

/** Tests for {@link DeadLetterProcessingExceptionHandler}. */
class DeadLetterProcessingExceptionHandlerTests {

  private final MockProducer<byte[], byte[]> producer = DeadLetterFixtures.producer();

  private final List<DeadLetter> published = new ArrayList<>();

  private final DeadLetterProcessingExceptionHandler handler = handler();

  @Test
  void sendsARecordWhoseValueAViewCannotReadAsItWasReadWithHeadersNamingWhereAndWhy() {
    SerializationException cause = new SerializationException("Cannot read JSON as Sale");
    RecordDecodingException failure = RecordDecodingException.unreadableValue("per-shop", cause);
    ProcessingHandlerResponse response =
        this.handler.handle(context("sales", 2, 41, "per-shop-decode"), record(), failure);
    assertThat(response).isEqualTo(ProcessingHandlerResponse.CONTINUE);
    ProducerRecord<byte[], byte[]> letter = this.producer.history().get(0);
    assertThat(letter.topic()).isEqualTo(DeadLetterFixtures.DEAD_LETTER_TOPIC);
    assertThat(letter.key()).isEqualTo(bytes("shop-1"));
    assertThat(letter.value()).isEqualTo(bytes("{not json"));
    assertThat(header(letter.headers(), "trace-id")).isEqualTo("t-1");
    assertThat(header(letter.headers(), DeadLetterHeaders.VIEW)).isEqualTo("per-shop");
    assertThat(header(letter.headers(), DeadLetterHeaders.REASON)).isEqualTo("deserialization");
    assertThat(header(letter.headers(), DeadLetterHeaders.TOPIC)).isEqualTo("sales");
    assertThat(header(letter.headers(), DeadLetterHeaders.PARTITION)).isEqualTo("2");
    assertThat(header(letter.headers(), DeadLetterHeaders.OFFSET)).isEqualTo("41");
    assertThat(header(letter.headers(), DeadLetterHeaders.PROCESSOR)).isEqualTo("per-shop-decode");
    assertThat(header(letter.headers(), DeadLetterHeaders.EXCEPTION_CLASS))
        .isEqualTo(SerializationException.class.getName());
    assertThat(header(letter.headers(), DeadLetterHeaders.EXCEPTION_MESSAGE))
        .isEqualTo("Cannot read JSON as Sale");
    assertThat(this.published).singleElement().extracting(DeadLetter::view).isEqualTo("per-shop");
  }

  @Test
  void namesAMissingEventTimeAsTheReason() {
    this.handler.handle(
        context("sales", 0, 7, "per-shop-decode"),
        record(),
        RecordDecodingException.missingEventTime("per-shop"));
    ProducerRecord<byte[], byte[]> letter = this.producer.history().get(0);
    assertThat(header(letter.headers(), DeadLetterHeaders.REASON)).isEqualTo("event-time");
    assertThat(header(letter.headers(), DeadLetterHeaders.EXCEPTION_CLASS))
        .isEqualTo(RecordDecodingException.class.getName());
    assertThat(header(letter.headers(), DeadLetterHeaders.EXCEPTION_MESSAGE))
        .isEqualTo("View 'per-shop' found no event time in the record");
  }

  @Test
  void namesAFailedAggregationAndAFailedGroupingByTheViewsProcessor() {
    this.handler.handle(
        context("shop-app-per-customer-repartition", 1, 3, "per-customer-aggregate"),
        record(),
        new IllegalStateException("boom"));
    this.handler.handle(
        context("sales", 0, 4, "per-customer"), record(), new IllegalArgumentException(""));
    assertThat(this.published)
        .extracting(DeadLetter::view, letter -> letter.reason().tag(), DeadLetter::topic)
        .containsExactly(
            tuple("per-customer", "aggregation", "shop-app-per-customer-repartition"),
            tuple("per-customer", "grouping", "sales"));
    assertThat(
            header(this.producer.history().get(0).headers(), DeadLetterHeaders.EXCEPTION_MESSAGE))
        .isEqualTo("boom");
  }

  @Test
  void sendsAFailureOfAProcessorOfNoViewWithoutAViewHeader() {
    this.handler.handle(
        context("sales", 0, 5, "users-own-processor"), record(), new IllegalStateException());
    ProducerRecord<byte[], byte[]> letter = this.producer.history().get(0);
    assertThat(letter.headers().lastHeader(DeadLetterHeaders.VIEW)).isNull();
    assertThat(header(letter.headers(), DeadLetterHeaders.REASON)).isEqualTo("processing");
    assertThat(header(letter.headers(), DeadLetterHeaders.EXCEPTION_MESSAGE)).isEmpty();
  }

  @Test
  void failsWhenTheDeadLetterCannotBeWritten() {
    this.producer.sendException = new TimeoutException("no broker");
    ProcessingHandlerResponse response =
        this.handler.handle(
            context("sales", 0, 5, "per-shop-aggregate"), record(), new IllegalStateException());
    assertThat(response).isEqualTo(ProcessingHandlerResponse.FAIL);
    assertThat(this.published).isEmpty();
  }

  @Test
  void refusesToStartWithoutMatviewsDeadLettersInTheConfiguration() {
    assertThatExceptionOfType(ConfigException.class)
        .isThrownBy(() -> new DeadLetterProcessingExceptionHandler().configure(Map.of()))
        .withMessageContaining(DeadLetters.CONFIG);
  }

  private DeadLetterProcessingExceptionHandler handler() {
    DeadLetterProcessingExceptionHandler handler = new DeadLetterProcessingExceptionHandler();
    handler.configure(DeadLetterFixtures.configs(this.producer, this.published::add));
    return handler;
  }

  private static DeadLetterFixtures.Context context(
      String topic, int partition, long offset, String processor) {
    RecordHeaders headers = new RecordHeaders();
    headers.add("trace-id", bytes("t-1"));
    return new DeadLetterFixtures.Context(
        topic,
        partition,
        offset,
        headers,
        processor,
        new TaskId(0, partition),
        1000L,
        bytes("shop-1"),
        bytes("{not json"));
  }

  private static Record<?, ?> record() {
    return new Record<>("shop-1", "ignored: the raw source bytes are sent", 1000L);
  }
}
