package dev.matview.query.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.position.InputRecord;
import dev.matview.query.answer.Futures;
import dev.matview.query.answer.InvalidQueryException;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;

/**
 * Where source partitions end, as a real broker tells it: the caller never waits for the broker's
 * answer, which completes or fails the check later.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InputEndsTests {

  private static final String TOPIC = "ends";

  private EmbeddedKafkaKraftBroker broker;

  private BrokerAdmin admin;

  @BeforeAll
  void startBrokerWithThreeRecords() throws Exception {
    this.broker = new EmbeddedKafkaKraftBroker(1, 2, TOPIC);
    this.broker.afterPropertiesSet();
    try (Producer<String, String> producer =
        new KafkaProducer<>(
            KafkaTestUtils.producerProps(this.broker),
            new StringSerializer(),
            new StringSerializer())) {
      for (int i = 0; i < 3; i++) {
        producer.send(new ProducerRecord<>(TOPIC, 0, "k", "v" + i)).get();
      }
    }
    this.admin = admin(this.broker.getBrokersAsString());
  }

  @AfterAll
  void stop() {
    this.admin.close();
    this.broker.destroy();
  }

  @Test
  void aWrittenRecordPassesAndARecordBelowAnEndSeenBeforePassesAtOnce() {
    InputEnds ends = new InputEnds(this.admin);

    CompletableFuture<Void> asked = ends.written("counts", new InputRecord(TOPIC, 0, 2));
    await().atMost(Duration.ofSeconds(10)).until(asked::isDone);
    Futures.now(asked);

    assertThat(ends.written("counts", new InputRecord(TOPIC, 0, 1))).isDone();
  }

  @Test
  void aRecordAtOrBeyondItsPartitionsEndIsRefusedSayingWhereItEnds() {
    InputEnds ends = new InputEnds(this.admin);

    CompletableFuture<Void> asked = ends.written("counts", new InputRecord(TOPIC, 0, 3));

    assertRefused(asked, "does not hold yet: it ends at offset 3");
  }

  @Test
  void aRecordOfAPartitionTheTopicLacksIsRefusedNamingThePartitionsItHas() {
    InputEnds ends = new InputEnds(this.admin);

    CompletableFuture<Void> asked = ends.written("counts", new InputRecord(TOPIC, 7, 0));

    assertRefused(asked, "which does not exist: it has partitions 0 to 1");
  }

  @Test
  void theCallerDoesNotWaitForABrokerThatDoesNotAnswerAndTheCheckPassesWhenNoneCanTell() {
    try (BrokerAdmin unreachable = admin("127.0.0.1:9")) {
      InputEnds ends = new InputEnds(unreachable);

      CompletableFuture<Void> asked = ends.written("counts", new InputRecord(TOPIC, 0, 5));

      assertThat(asked).isNotDone();
      await().atMost(Duration.ofSeconds(30)).until(asked::isDone);
      assertThat(asked).isCompleted();
    }
  }

  private static void assertRefused(CompletableFuture<Void> asked, String why) {
    await().atMost(Duration.ofSeconds(10)).until(asked::isDone);
    assertThat(asked)
        .failsWithin(Duration.ZERO)
        .withThrowableOfType(Exception.class)
        .havingRootCause()
        .isInstanceOf(InvalidQueryException.class)
        .withMessageContaining(why);
  }

  private static BrokerAdmin admin(String bootstrapServers) {
    Properties streams = new Properties();
    streams.put(StreamsConfig.APPLICATION_ID_CONFIG, "ends");
    streams.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    return new BrokerAdmin(() -> streams, "ends-admin");
  }
}
