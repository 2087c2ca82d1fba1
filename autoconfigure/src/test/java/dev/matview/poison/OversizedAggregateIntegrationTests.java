package dev.matview.poison;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.deadletter.DeadLetterHeaders;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * On a real broker, an aggregate too large for its changelog topic (a {@code latest()} view of a
 * 100 KB value with the producer's max.request.size at 64 KB) is refused before its store keeps it:
 * one dead letter from the view's aggregation, the lookup and the changelog both keep the previous
 * value, the records after it are counted, and a restore from the changelog answers the same.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.NONE,
    properties = {
      "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
      "spring.kafka.streams.application-id=oversized-it",
      "spring.kafka.streams.state-dir=${java.io.tmpdir}/matview-oversized-it-${random.uuid}",
      "spring.kafka.streams.cleanup.on-shutdown=true",
      "spring.kafka.streams.properties.producer.max.request.size=65536",
      "spring.kafka.streams.properties.commit.interval.ms=1000"
    })
@EmbeddedKafka(
    partitions = 1,
    topics = OversizedAggregateIntegrationTests.NOTES,
    brokerProperties = {"auto.create.topics.enable=false", "group.initial.rebalance.delay.ms=0"})
class OversizedAggregateIntegrationTests {

  static final String NOTES = "notes";

  private static final String LATEST = "latest-note";

  private static final String COUNT = "notes-per-author";

  private static final String CHANGELOG = "oversized-it-" + LATEST + "-changelog";

  private final JsonMapper mapper = JsonMapper.builder().build();

  @Autowired EmbeddedKafkaBroker broker;

  @Autowired StreamsBuilderFactoryBean streams;

  @Test
  void anAggregateTooLargeForTheChangelogIsADeadLetterAndStoreAndChangelogKeepThePreviousOne() {
    publish(
        List.of(
            note("alice", "first"),
            note("alice", "n".repeat(100_000)),
            note("bob", "after-1"),
            note("bob", "after-2")));

    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(250))
        .ignoreExceptions()
        .untilAsserted(() -> assertThat(this.<Long>lookup(COUNT, "bob")).isEqualTo(2L));
    KafkaStreams kafkaStreams = this.streams.getKafkaStreams();
    assertThat(kafkaStreams).isNotNull();
    assertThat(kafkaStreams.state()).isEqualTo(KafkaStreams.State.RUNNING);
    assertThat(this.<Long>lookup(COUNT, "alice")).isEqualTo(2L);
    assertThat(this.<Note>lookup(LATEST, "alice")).isEqualTo(new Note("first"));
    assertThat(this.<Note>lookup(LATEST, "bob")).isEqualTo(new Note("after-2"));

    List<ConsumerRecord<byte[], byte[]>> letters = read("oversized-it-dlq", 1);
    assertThat(letters).hasSize(1);
    ConsumerRecord<byte[], byte[]> letter = letters.get(0);
    assertThat(header(letter, DeadLetterHeaders.VIEW)).isEqualTo(LATEST);
    assertThat(header(letter, DeadLetterHeaders.REASON)).isEqualTo("aggregate-too-large");
    assertThat(header(letter, DeadLetterHeaders.PROCESSOR)).isEqualTo(LATEST + "-aggregate");
    assertThat(header(letter, DeadLetterHeaders.OFFSET)).isEqualTo("1");
    assertThat(header(letter, DeadLetterHeaders.EXCEPTION_MESSAGE))
        .contains("'" + LATEST + "'", "65536");

    Map<String, Note> changelog = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> update : read(CHANGELOG, 2)) {
      changelog.put(
          new String(update.key(), StandardCharsets.UTF_8),
          this.mapper.readValue(update.value(), Note.class));
    }
    assertThat(changelog).isEqualTo(Map.of("alice", new Note("first"), "bob", new Note("after-2")));

    Path stateDir =
        Path.of(
            this.streams.getStreamsConfiguration().getProperty(StreamsConfig.STATE_DIR_CONFIG),
            "oversized-it");
    this.streams.stop();
    assertThat(stateDir.resolve("0_0")).doesNotExist();
    this.streams.start();
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(250))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              assertThat(this.<Note>lookup(LATEST, "alice")).isEqualTo(new Note("first"));
              assertThat(this.<Long>lookup(COUNT, "bob")).isEqualTo(2L);
            });
  }

  private ProducerRecord<byte[], byte[]> note(String author, String text) {
    return new ProducerRecord<>(
        NOTES,
        0,
        author.getBytes(StandardCharsets.UTF_8),
        this.mapper.writeValueAsBytes(new Note(text)));
  }

  private void publish(List<ProducerRecord<byte[], byte[]>> records) {
    Map<String, Object> configs = KafkaTestUtils.producerProps(this.broker);
    configs.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1_000_000);
    try (Producer<byte[], byte[]> producer =
        new KafkaProducer<>(configs, new ByteArraySerializer(), new ByteArraySerializer())) {
      records.forEach(producer::send);
      producer.flush();
    }
  }

  /** Every record of {@code topic}, waiting until there are at least {@code least}. */
  private List<ConsumerRecord<byte[], byte[]>> read(String topic, int least) {
    List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>();
    try (Consumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            KafkaTestUtils.consumerProps(this.broker, "oversized-reader-" + topic, false),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(topic));
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                consumer.poll(Duration.ofMillis(200)).forEach(all::add);
                assertThat(all).hasSizeGreaterThanOrEqualTo(least);
              });
      consumer.poll(Duration.ofSeconds(1)).forEach(all::add);
    }
    return all;
  }

  private <A> @Nullable A lookup(String view, String key) {
    KafkaStreams kafkaStreams = this.streams.getKafkaStreams();
    assertThat(kafkaStreams).isNotNull();
    return kafkaStreams
        .store(
            StoreQueryParameters.fromNameAndType(
                view, QueryableStoreTypes.<String, A>keyValueStore()))
        .get(key);
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    Header header = record.headers().lastHeader(name);
    return (header != null) ? new String(header.value(), StandardCharsets.UTF_8) : "";
  }

  record Note(String text) {}

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class NoteViews {

    @MaterializedView(LATEST)
    ViewDefinition<String, Note, Note> latestNote() {
      return Views.from(NOTES, Note.class).latest();
    }

    @MaterializedView(COUNT)
    ViewDefinition<String, Note, Long> notesPerAuthor() {
      return Views.from(NOTES, Note.class).count();
    }
  }
}
