package dev.matview.deadletter;

import static dev.matview.deadletter.DeadLetterFixtures.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/** Tests for {@link DeadLetterPublisher}. */
class DeadLetterPublisherTests {

  private final MockProducer<byte[], byte[]> producer = DeadLetterFixtures.producer();

  private final AtomicInteger created = new AtomicInteger();

  private final DeadLetterPublisher publisher =
      new DeadLetterPublisher(
          "app-dlq",
          () -> {
            this.created.incrementAndGet();
            return this.producer;
          },
          DeadLetterListener.NONE,
          1048576);

  @Test
  void createsItsProducerOnTheFirstDeadLetterOnly() {
    assertThat(this.created).hasValue(0);
    assertThat(this.publisher.publish(letter())).isTrue();
    assertThat(this.publisher.publish(letter())).isTrue();
    assertThat(this.created).hasValue(1);
    assertThat(this.producer.history()).hasSize(2);
  }

  @Test
  void closesItsProducerAndRefusesLaterDeadLetters() {
    this.publisher.publish(letter());
    this.publisher.close();
    assertThat(this.producer.closed()).isTrue();
    assertThat(this.publisher.publish(letter())).isFalse();
  }

  @Test
  void closesWithoutAProducerWhenNoDeadLetterWasSent() {
    this.publisher.close();
    assertThat(this.created).hasValue(0);
  }

  private static DeadLetter letter() {
    return new DeadLetter(
        "per-shop",
        DeadLetterReason.AGGREGATION,
        "sales",
        0,
        1,
        "per-shop-aggregate",
        bytes("k"),
        bytes("v"),
        new RecordHeaders(),
        new IllegalStateException("boom"));
  }
}
