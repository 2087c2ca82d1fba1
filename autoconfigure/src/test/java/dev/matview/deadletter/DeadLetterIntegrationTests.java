package dev.matview.deadletter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.view.Aggregation;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
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
 * On a real broker that creates no topic by itself, a poison record on each view's topic lands in
 * the dead-letter topic with its headers, the counter moves, and later records are still
 * aggregated.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.NONE,
    properties = {
      "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
      "spring.kafka.streams.application-id=dlq-it",
      "spring.kafka.streams.state-dir=${java.io.tmpdir}/matview-dlq-it-${random.uuid}",
      "spring.kafka.streams.cleanup.on-shutdown=true"
    })
@EmbeddedKafka(
    partitions = 2,
    topics = {
      DeadLetterIntegrationTests.ORDERS,
      DeadLetterIntegrationTests.PAYMENTS,
      DeadLetterIntegrationTests.VISITS
    },
    brokerProperties = "auto.create.topics.enable=false")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeadLetterIntegrationTests {

  static final String ORDERS = "orders";

  static final String PAYMENTS = "payments";

  static final String VISITS = "visits";

  private static final String DLQ = "dlq-it-dlq";

  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  private final JsonMapper mapper = JsonMapper.builder().build();

  @Autowired EmbeddedKafkaBroker broker;

  @Autowired StreamsBuilderFactoryBean streams;

  @Autowired MeterRegistry meters;

  private final Map<String, ConsumerRecord<byte[], byte[]>> letters = new HashMap<>();

  @BeforeAll
  void publishPoisonThenGoodRecords() {
    try (Admin admin =
        Admin.create(Map.of("bootstrap.servers", this.broker.getBrokersAsString()))) {
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertThat(admin.listTopics().names().get()).contains(DLQ));
    }
    try (Producer<String, String> producer =
        new KafkaProducer<>(
            KafkaTestUtils.producerProps(this.broker),
            new StringSerializer(),
            new StringSerializer())) {
      producer.send(new ProducerRecord<>(ORDERS, 1, "o-1", "{not json"));
      producer.send(new ProducerRecord<>(PAYMENTS, 1, "shop-1", json(new Payment(13))));
      producer.send(new ProducerRecord<>(VISITS, 1, "home", json(new Visit(null))));
      producer.send(new ProducerRecord<>(ORDERS, 1, "o-2", json(new Order("alice"))));
      producer.send(new ProducerRecord<>(PAYMENTS, 1, "shop-1", json(new Payment(5))));
      producer.send(new ProducerRecord<>(VISITS, 1, "home", json(new Visit(T0))));
    }
    try (Consumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            KafkaTestUtils.consumerProps(this.broker, "dlq-reader", false),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(DLQ));
      List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
      KafkaTestUtils.getRecords(consumer, Duration.ofSeconds(60), 3).forEach(records::add);
      records.forEach(record -> this.letters.put(header(record, DeadLetterHeaders.VIEW), record));
    }
  }

  @Test
  void sendsAValueThatCannotBeReadWithHeadersNamingViewTopicPartitionOffsetAndException() {
    ConsumerRecord<byte[], byte[]> letter = this.letters.get("orders-per-customer");
    assertThat(letter).isNotNull();
    assertThat(new String(letter.key(), StandardCharsets.UTF_8)).isEqualTo("o-1");
    assertThat(new String(letter.value(), StandardCharsets.UTF_8)).isEqualTo("{not json");
    assertThat(header(letter, DeadLetterHeaders.REASON)).isEqualTo("deserialization");
    assertThat(header(letter, DeadLetterHeaders.TOPIC)).isEqualTo(ORDERS);
    assertThat(header(letter, DeadLetterHeaders.PARTITION)).isEqualTo("1");
    assertThat(header(letter, DeadLetterHeaders.OFFSET)).isEqualTo("0");
    assertThat(header(letter, DeadLetterHeaders.EXCEPTION_CLASS))
        .isEqualTo(SerializationException.class.getName());
    assertThat(header(letter, DeadLetterHeaders.EXCEPTION_MESSAGE))
        .startsWith("Cannot read JSON as " + Order.class.getName());
  }

  @Test
  void sendsARecordWhoseAggregationThrows() {
    ConsumerRecord<byte[], byte[]> letter = this.letters.get("payments-per-shop");
    assertThat(letter).isNotNull();
    assertThat(header(letter, DeadLetterHeaders.REASON)).isEqualTo("aggregation");
    assertThat(header(letter, DeadLetterHeaders.TOPIC)).isEqualTo(PAYMENTS);
    assertThat(header(letter, DeadLetterHeaders.PARTITION)).isEqualTo("1");
    assertThat(header(letter, DeadLetterHeaders.OFFSET)).isEqualTo("0");
    assertThat(header(letter, DeadLetterHeaders.PROCESSOR))
        .isEqualTo("payments-per-shop-aggregate");
    assertThat(header(letter, DeadLetterHeaders.EXCEPTION_CLASS))
        .isEqualTo(IllegalArgumentException.class.getName());
    assertThat(header(letter, DeadLetterHeaders.EXCEPTION_MESSAGE)).isEqualTo("13 is unlucky");
    assertThat(this.mapper.readValue(letter.value(), Payment.class)).isEqualTo(new Payment(13));
  }

  @Test
  void sendsARecordWithoutEventTime() {
    ConsumerRecord<byte[], byte[]> letter = this.letters.get("visits-per-minute");
    assertThat(letter).isNotNull();
    assertThat(header(letter, DeadLetterHeaders.REASON)).isEqualTo("event-time");
    assertThat(header(letter, DeadLetterHeaders.TOPIC)).isEqualTo(VISITS);
    assertThat(header(letter, DeadLetterHeaders.PARTITION)).isEqualTo("1");
    assertThat(header(letter, DeadLetterHeaders.OFFSET)).isEqualTo("0");
    assertThat(header(letter, DeadLetterHeaders.EXCEPTION_MESSAGE))
        .isEqualTo("View 'visits-per-minute' found no event time in the record");
  }

  @Test
  void countsEachDeadLetterByViewAndReason() {
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              assertThat(count("orders-per-customer", "deserialization")).isEqualTo(1);
              assertThat(count("payments-per-shop", "aggregation")).isEqualTo(1);
              assertThat(count("visits-per-minute", "event-time")).isEqualTo(1);
            });
  }

  @Test
  void aggregatesTheRecordsThatFollow() {
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              KafkaStreams kafkaStreams = this.streams.getKafkaStreams();
              assertThat(kafkaStreams).isNotNull();
              assertThat(kafkaStreams.state()).isEqualTo(KafkaStreams.State.RUNNING);
              assertThat(
                      kafkaStreams
                          .store(
                              StoreQueryParameters.fromNameAndType(
                                  "orders-per-customer",
                                  QueryableStoreTypes.<String, Long>keyValueStore()))
                          .get("alice"))
                  .isEqualTo(1L);
              assertThat(
                      kafkaStreams
                          .store(
                              StoreQueryParameters.fromNameAndType(
                                  "payments-per-shop",
                                  QueryableStoreTypes.<String, Long>keyValueStore()))
                          .get("shop-1"))
                  .isEqualTo(5L);
              try (WindowStoreIterator<Long> windows =
                  kafkaStreams
                      .store(
                          StoreQueryParameters.fromNameAndType(
                              "visits-per-minute", QueryableStoreTypes.<String, Long>windowStore()))
                      .fetch("home", T0, T0)) {
                assertThat(windows.hasNext()).isTrue();
                assertThat(windows.next().value).isEqualTo(1L);
              }
            });
  }

  private double count(String view, String reason) {
    return this.meters
        .get("matview.dead.letters")
        .tag("view", view)
        .tag("reason", reason)
        .counter()
        .count();
  }

  private String json(Object value) {
    return this.mapper.writeValueAsString(value);
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    Header header = record.headers().lastHeader(name);
    return (header != null) ? new String(header.value(), StandardCharsets.UTF_8) : "";
  }

  record Order(String customer) {}

  record Payment(long amount) {}

  record Visit(@Nullable Instant at) {}

  /** Sums payments, but refuses 13. */
  static final class Picky implements Aggregation<String, Payment, Long> {

    @Override
    public Long initial() {
      return 0L;
    }

    @Override
    public Long add(String shop, Payment payment, @Nullable Long total) {
      if (payment.amount() == 13) {
        throw new IllegalArgumentException("13 is unlucky");
      }
      return (total != null ? total : 0L) + payment.amount();
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class PoisonedViews {

    @MaterializedView("orders-per-customer")
    ViewDefinition<String, Order, Long> ordersPerCustomer() {
      return Views.from(ORDERS, Order.class).groupBy(String.class, Order::customer).count();
    }

    @MaterializedView("payments-per-shop")
    ViewDefinition<String, Payment, Long> paymentsPerShop() {
      return Views.from(PAYMENTS, Payment.class).aggregate(Long.class, new Picky());
    }

    @MaterializedView("visits-per-minute")
    ViewDefinition<String, Visit, Long> visitsPerMinute() {
      return Views.from(VISITS, Visit.class)
          .eventTime(Visit::at)
          .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)))
          .count();
    }
  }
}
