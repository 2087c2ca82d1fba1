package dev.matview.deadletter;

import static dev.matview.deadletter.DeadLetterFixtures.bytes;
import static dev.matview.deadletter.DeadLetterFixtures.header;
import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.view.DecimalBounds;
import dev.matview.view.NumberOutOfBoundsException;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.ProductionExceptionHandler.ProductionExceptionHandlerResponse;
import org.apache.kafka.streams.errors.ProductionExceptionHandler.SerializationExceptionOrigin;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

/** Tests for {@link DeadLetterProductionExceptionHandler}. */
class DeadLetterProductionExceptionHandlerTests {

  private static final String REPARTITION = "shop-app-per-customer-repartition";

  private final MockProducer<byte[], byte[]> producer = DeadLetterFixtures.producer();

  private final List<DeadLetter> published = new ArrayList<>();

  private final DeadLetterProductionExceptionHandler handler = handler();

  @Test
  void sendsTheSourceRecordWhoseRepartitionWriteWasRefusedAndGoesOn() {
    ProductionExceptionHandlerResponse response =
        this.handler.handle(
            context(1000L),
            written(1000L),
            new RecordTooLargeException("The message is 1200000 bytes when serialized"));
    assertThat(response).isEqualTo(ProductionExceptionHandlerResponse.CONTINUE);
    ProducerRecord<byte[], byte[]> letter = this.producer.history().get(0);
    assertThat(letter.key()).isEqualTo(bytes("order-7"));
    assertThat(letter.value()).isEqualTo(bytes("{\"customer\": \"huge\"}"));
    assertThat(header(letter.headers(), DeadLetterHeaders.VIEW)).isEqualTo("per-customer");
    assertThat(header(letter.headers(), DeadLetterHeaders.REASON)).isEqualTo("production");
    assertThat(header(letter.headers(), DeadLetterHeaders.TOPIC)).isEqualTo("sales");
    assertThat(header(letter.headers(), DeadLetterHeaders.OFFSET)).isEqualTo("7");
  }

  @Test
  void neverBlamesTheNeighbourWhoseContextHasMovedOnButSendsTheFailedRecordAsWritten() {
    this.handler.handle(
        context(2000L), written(1000L), new RecordTooLargeException("refused by the broker"));
    ProducerRecord<byte[], byte[]> letter = this.producer.history().get(0);
    assertThat(letter.key()).isEqualTo(bytes("huge"));
    assertThat(letter.value()).isEqualTo(bytes("{\"written\": true}"));
    assertThat(header(letter.headers(), DeadLetterHeaders.VIEW)).isEqualTo("per-customer");
    assertThat(header(letter.headers(), DeadLetterHeaders.TOPIC)).isEqualTo(REPARTITION);
    assertThat(header(letter.headers(), DeadLetterHeaders.OFFSET)).isEqualTo("-1");
  }

  @Test
  void neverTrustsTheContextOnTheProducersThread() throws InterruptedException {
    Thread producerThread =
        new Thread(
            () ->
                this.handler.handle(
                    context(1000L), written(1000L), new RecordTooLargeException("async")),
            "kafka-producer-network-thread | app");
    producerThread.start();
    producerThread.join(10_000);
    assertThat(this.producer.history().get(0).key()).isEqualTo(bytes("huge"));
  }

  @Test
  void sendsARecordThatCannotBeSerializedWithTheReasonItsCauseStates() {
    ProductionExceptionHandlerResponse response =
        this.handler.handleSerializationException(
            context(1000L),
            new ProducerRecord<>(REPARTITION, null, 1000L, "huge", new Object()),
            new SerializationException(
                "Cannot write", new NumberOutOfBoundsException("1e2000", DecimalBounds.STANDARD)),
            SerializationExceptionOrigin.VALUE);
    assertThat(response).isEqualTo(ProductionExceptionHandlerResponse.CONTINUE);
    ProducerRecord<byte[], byte[]> letter = this.producer.history().get(0);
    assertThat(letter.key()).isEqualTo(bytes("order-7"));
    assertThat(header(letter.headers(), DeadLetterHeaders.REASON))
        .isEqualTo("number-out-of-bounds");
    assertThat(this.published).hasSize(1);
  }

  @Test
  void failsWhenAWriteToAChangelogFailsSoThatStoreAndChangelogNeverDifferAndWritesNoDeadLetter() {
    ProductionExceptionHandlerResponse response =
        this.handler.handle(
            context(1000L),
            new ProducerRecord<>(
                "shop-app-per-customer-changelog",
                null,
                1000L,
                bytes("huge"),
                bytes("{\"total\": 1}")),
            new RecordTooLargeException("refused by the broker"));
    assertThat(response).isEqualTo(ProductionExceptionHandlerResponse.FAIL);
    assertThat(this.producer.history()).isEmpty();
    assertThat(this.published).isEmpty();
  }

  private DeadLetterProductionExceptionHandler handler() {
    DeadLetterProductionExceptionHandler handler = new DeadLetterProductionExceptionHandler();
    handler.configure(DeadLetterFixtures.configs(this.producer, this.published::add));
    return handler;
  }

  private static ProducerRecord<byte[], byte[]> written(long timestamp) {
    return new ProducerRecord<>(
        REPARTITION, null, timestamp, bytes("huge"), bytes("{\"written\": true}"));
  }

  private static DeadLetterFixtures.Context context(long timestamp) {
    return new DeadLetterFixtures.Context(
        "sales",
        0,
        7,
        new RecordHeaders(),
        "per-customer-repartition-sink",
        new TaskId(0, 0),
        timestamp,
        bytes("order-7"),
        bytes("{\"customer\": \"huge\"}"));
  }
}
