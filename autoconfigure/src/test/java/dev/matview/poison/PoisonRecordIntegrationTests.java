package dev.matview.poison;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.deadletter.DeadLetterHeaders;
import dev.matview.view.Aggregation;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.WindowStoreIterator;
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
 * The poison-record suite: on a real broker, records that once stopped Kafka Streams, blamed a
 * neighbour or vanished silently are published between known good orders. Processing never stops,
 * each bad record reaches the dead-letter topic exactly once per view that cannot use it with the
 * right reason (a late record once per time- and session-windowed view), a tombstone is counted,
 * and every good order is counted exactly in every view.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.NONE,
    properties = {
      "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
      "spring.kafka.streams.application-id=poison-it",
      "spring.kafka.streams.state-dir=${java.io.tmpdir}/matview-poison-it-${random.uuid}",
      "spring.kafka.streams.cleanup.on-shutdown=true"
    })
@EmbeddedKafka(
    partitions = 1,
    topics = PoisonRecordIntegrationTests.ORDERS,
    brokerProperties = {
      "auto.create.topics.enable=false",
      "message.max.bytes=3000000",
      "group.initial.rebalance.delay.ms=0"
    })
class PoisonRecordIntegrationTests {

  static final String ORDERS = "orders";

  private static final String DLQ = "poison-it-dlq";

  private static final String COUNT = "orders-per-customer";

  private static final String REVENUE = "revenue-per-customer";

  private static final String PER_MINUTE = "orders-per-customer-per-minute";

  private static final String SESSIONS = "orders-per-customer-session";

  private static final List<String> VIEWS = List.of(COUNT, REVENUE, PER_MINUTE, SESSIONS);

  /** The views with an event time, which refuse records by their time. */
  private static final List<String> WINDOWED = List.of(PER_MINUTE, SESSIONS);

  private static final String ID = "test-id";

  /** The header that re-keyed records carry across their repartition topic. */
  private static final String REKEYED_INPUT_HEADER = "matview.input";

  private final JsonMapper mapper = JsonMapper.builder().build();

  private final Random random = new Random(7);

  @Autowired EmbeddedKafkaBroker broker;

  @Autowired StreamsBuilderFactoryBean streams;

  @Autowired MeterRegistry meters;

  /** Per view, the dead letters expected: test id to reason. */
  private final Map<String, Map<String, String>> expectedLetters = new HashMap<>();

  /** Per view, the orders expected per customer. */
  private final Map<String, Map<String, Long>> expectedCounts = new HashMap<>();

  private final Map<String, BigDecimal> expectedTotals = new TreeMap<>();

  @Test
  void processingGoesOnEachBadRecordIsADeadLetterOncePerViewAndGoodOrdersAreCountedExactly() {
    Instant now = Instant.now();
    VIEWS.forEach(
        view -> {
          this.expectedLetters.put(view, new TreeMap<>());
          this.expectedCounts.put(view, new TreeMap<>());
        });
    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
    int good = 0;
    List<Poison> poisons = poisons(now);
    for (Poison poison : poisons) {
      records.add(good(++good, now));
      records.add(poison.record(records.size()));
      poison.reasons().forEach((view, reason) -> expect(view, poison.id(), reason));
      poison.countedBy().forEach(view -> count(view, poison.customer(), poison.amount()));
    }
    for (byte[] forged : forgedInputHeaders()) {
      String customer = "forged-input-" + forged.length;
      ProducerRecord<byte[], byte[]> record =
          order("o-" + customer, customer, new BigDecimal("2"), now, null, customer);
      record.headers().add(REKEYED_INPUT_HEADER, forged);
      records.add(record);
      VIEWS.forEach(view -> count(view, customer, new BigDecimal("2")));
    }
    records.add(good(++good, now));
    String sentinel = "sentinel-" + good;
    records.add(order("o-sentinel", sentinel, new BigDecimal("1.25"), now, null, "sentinel"));
    VIEWS.forEach(view -> count(view, sentinel, new BigDecimal("1.25")));
    publish(records);

    // Each view reads its own repartition partitions at its own pace: wait until every count holds.
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(250))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              for (String view : VIEWS) {
                this.expectedCounts
                    .get(view)
                    .forEach(
                        (customer, orders) ->
                            assertThat(count(view, customer, now))
                                .as("orders of %s in view %s", customer, view)
                                .isEqualTo(orders));
              }
            });
    KafkaStreams kafkaStreams = this.streams.getKafkaStreams();
    assertThat(kafkaStreams).isNotNull();
    assertThat(kafkaStreams.state()).isEqualTo(KafkaStreams.State.RUNNING);
    for (String refused : List.of("far-future", "ahead", "late")) {
      for (String view : WINDOWED) {
        assertThat(count(view, refused, now)).as("orders of %s in %s", refused, view).isZero();
      }
    }
    this.expectedTotals.forEach(
        (customer, total) ->
            assertThat(revenue(customer).total())
                .as("revenue of %s", customer)
                .isEqualByComparingTo(total));

    Map<String, Map<String, List<String>>> letters = readDeadLetters();
    for (String view : VIEWS) {
      Map<String, String> actual = new TreeMap<>();
      letters
          .getOrDefault(view, Map.of())
          .forEach(
              (id, reasons) -> {
                assertThat(reasons).as("dead letters of %s in view %s", id, view).hasSize(1);
                actual.put(id, reasons.get(0));
              });
      assertThat(actual)
          .as("dead letters of view %s", view)
          .isEqualTo(this.expectedLetters.get(view));
    }
    assertThat(letters.keySet()).isSubsetOf(VIEWS);
    for (String view : VIEWS) {
      assertThat(dropped(view, "tombstone")).isEqualTo(1);
    }
    for (String view : WINDOWED) {
      assertThat(dropped(view, "late")).as("late records of %s", view).isEqualTo(1);
    }
    assertThat(dropped(COUNT, "number-out-of-bounds")).isEqualTo(2);
  }

  /**
   * Values of the header with which re-keyed records name their source record, set by a producer:
   * too short to read, and well formed but naming a partition and offset no record has.
   */
  private static List<byte[]> forgedInputHeaders() {
    return List.of(
        new byte[] {1, 2, 3},
        ByteBuffer.allocate(Integer.BYTES + Long.BYTES).putInt(7).putLong(Long.MAX_VALUE).array());
  }

  private List<Poison> poisons(Instant now) {
    byte[] megabyte = new byte[1_048_576];
    this.random.nextBytes(megabyte);
    megabyte[0] = '{';
    byte[] randomBytes = new byte[64];
    this.random.nextBytes(randomBytes);
    String hugeCustomer = "c".repeat(600_000);
    String epochMillisAsSeconds =
        "{\"orderId\": \"o\", \"customerId\": \"far-future\", \"amount\": 1, \"ts\": "
            + now.toEpochMilli()
            + "}";
    List<Poison> poisons = new ArrayList<>();
    poisons.add(Poison.all("megabyte", megabyte, "deserialization"));
    poisons.add(
        Poison.all(
            "1e100000000",
            json("{\"customerId\": \"alice\", \"amount\": 1e100000000, \"ts\": \"" + now + "\"}"),
            "number-out-of-bounds"));
    poisons.add(
        Poison.all(
            "1e2000",
            json("{\"customerId\": \"alice\", \"amount\": 1e2000, \"ts\": \"" + now + "\"}"),
            "number-out-of-bounds"));
    poisons.add(
        Poison.windowed("year-57900", json(epochMillisAsSeconds), "event-time", "far-future"));
    poisons.add(
        Poison.windowed(
            "fifty-minutes-ahead",
            orderJson("ahead", "2", now.plus(Duration.ofMinutes(50)), null),
            "event-time",
            "ahead"));
    poisons.add(
        Poison.all("600KB-customer", orderJson(hugeCustomer, "1", now, null), "production"));
    poisons.add(
        Poison.all(
            "null-customer",
            json("{\"customerId\": null, \"amount\": 1, \"ts\": \"" + now + "\"}"),
            "null-key"));
    poisons.add(Poison.all("json-null", json("null"), "null-value"));
    poisons.add(Poison.tombstone());
    poisons.add(Poison.all("random-bytes", randomBytes, "deserialization"));
    poisons.add(
        Poison.all("truncated-json", json("{\"customerId\": \"alice\", \"amo"), "deserialization"));
    poisons.add(
        Poison.all(
            "1500-digit-amount",
            json("{\"customerId\": \"alice\", \"amount\": " + "9".repeat(1500) + "}"),
            "deserialization"));
    poisons.add(
        Poison.windowed(
            "five-minutes-late",
            orderJson("late", "3", now.minus(Duration.ofMinutes(5)), null),
            "late",
            "late"));
    poisons.add(
        Poison.good(
            "700KB-note", orderJson("huge-note", "4", now, "n".repeat(700_000)), "huge-note"));
    return poisons;
  }

  private ProducerRecord<byte[], byte[]> good(int number, Instant now) {
    String customer = (number % 2 == 0) ? "alice" : "bob";
    BigDecimal amount = new BigDecimal("1.25");
    VIEWS.forEach(view -> count(view, customer, amount));
    return order("o-good-" + number, customer, amount, now, null, "good-" + number);
  }

  private ProducerRecord<byte[], byte[]> order(
      String orderId,
      String customer,
      BigDecimal amount,
      Instant ts,
      @Nullable String note,
      String id) {
    RecordHeaders headers = new RecordHeaders();
    headers.add(ID, id.getBytes(StandardCharsets.UTF_8));
    return new ProducerRecord<>(
        ORDERS,
        0,
        null,
        orderId.getBytes(StandardCharsets.UTF_8),
        this.mapper.writeValueAsBytes(new Order(orderId, customer, amount, ts, note)),
        headers);
  }

  private byte[] orderJson(String customer, String amount, Instant ts, @Nullable String note) {
    return this.mapper.writeValueAsBytes(
        new Order("o-" + customer.length(), customer, new BigDecimal(amount), ts, note));
  }

  private void expect(String view, String id, String reason) {
    this.expectedLetters.get(view).put(id, reason);
  }

  private void count(String view, String customer, BigDecimal amount) {
    this.expectedCounts.get(view).merge(customer, 1L, Long::sum);
    if (view.equals(REVENUE)) {
      this.expectedTotals.merge(customer, amount, BigDecimal::add);
    }
  }

  private void publish(List<ProducerRecord<byte[], byte[]>> records) {
    Map<String, Object> configs = KafkaTestUtils.producerProps(this.broker);
    configs.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 3_000_000);
    try (Producer<byte[], byte[]> producer =
        new KafkaProducer<>(configs, new ByteArraySerializer(), new ByteArraySerializer())) {
      for (ProducerRecord<byte[], byte[]> record : records) {
        producer.send(record);
      }
      producer.flush();
    }
  }

  private Map<String, Map<String, List<String>>> readDeadLetters() {
    Map<String, Map<String, List<String>>> letters = new HashMap<>();
    try (Consumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            KafkaTestUtils.consumerProps(this.broker, "poison-reader", false),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(DLQ));
      int expected = this.expectedLetters.values().stream().mapToInt(Map::size).sum();
      for (ConsumerRecord<byte[], byte[]> letter :
          KafkaTestUtils.getRecords(consumer, Duration.ofSeconds(30), expected)) {
        assertThat(letter.serializedKeySize() + letter.serializedValueSize())
            .isLessThanOrEqualTo(1_048_576);
        String id = header(letter, ID);
        if (id.equals("megabyte")) {
          assertThat(header(letter, DeadLetterHeaders.TRUNCATED)).isEqualTo("value=1048576");
        }
        letters
            .computeIfAbsent(header(letter, DeadLetterHeaders.VIEW), view -> new TreeMap<>())
            .computeIfAbsent(id, key -> new ArrayList<>())
            .add(header(letter, DeadLetterHeaders.REASON));
      }
    }
    return letters;
  }

  private long count(String view, String customer, Instant now) {
    KafkaStreams kafkaStreams = this.streams.getKafkaStreams();
    if (kafkaStreams == null) {
      return -1;
    }
    if (view.equals(PER_MINUTE)) {
      long total = 0;
      try (WindowStoreIterator<Long> windows =
          kafkaStreams
              .store(
                  StoreQueryParameters.fromNameAndType(
                      view, QueryableStoreTypes.<String, Long>windowStore()))
              .fetch(customer, now.minus(Duration.ofHours(2)), now.plus(Duration.ofHours(2)))) {
        while (windows.hasNext()) {
          total += windows.next().value;
        }
      }
      return total;
    }
    if (view.equals(SESSIONS)) {
      long total = 0;
      try (KeyValueIterator<Windowed<String>, Long> sessions =
          kafkaStreams
              .store(
                  StoreQueryParameters.fromNameAndType(
                      view, QueryableStoreTypes.<String, Long>sessionStore()))
              .fetch(customer)) {
        while (sessions.hasNext()) {
          total += sessions.next().value;
        }
      }
      return total;
    }
    if (view.equals(REVENUE)) {
      Revenue revenue = revenue(customer);
      return revenue.orders();
    }
    Long count =
        kafkaStreams
            .store(
                StoreQueryParameters.fromNameAndType(
                    view, QueryableStoreTypes.<String, Long>keyValueStore()))
            .get(customer);
    return (count != null) ? count : 0;
  }

  private Revenue revenue(String customer) {
    KafkaStreams kafkaStreams = this.streams.getKafkaStreams();
    assertThat(kafkaStreams).isNotNull();
    Revenue revenue =
        kafkaStreams
            .store(
                StoreQueryParameters.fromNameAndType(
                    REVENUE, QueryableStoreTypes.<String, Revenue>keyValueStore()))
            .get(customer);
    return (revenue != null) ? revenue : new Revenue(0, BigDecimal.ZERO);
  }

  private double dropped(String view, String reason) {
    Counter counter =
        this.meters
            .find("matview.dropped.records")
            .tag("view", view)
            .tag("reason", reason)
            .counter();
    return (counter != null) ? counter.count() : 0;
  }

  private static byte[] json(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    Header header = record.headers().lastHeader(name);
    return (header != null) ? new String(header.value(), StandardCharsets.UTF_8) : "";
  }

  /**
   * A record to publish, the reason each view gives for its dead letter, and the views that count
   * it anyway under {@code customer}.
   */
  record Poison(
      String id,
      byte @Nullable [] value,
      Map<String, String> reasons,
      List<String> countedBy,
      String customer,
      BigDecimal amount) {

    static Poison all(String id, byte[] value, String reason) {
      Map<String, String> reasons = new HashMap<>();
      VIEWS.forEach(view -> reasons.put(view, reason));
      return new Poison(id, value, reasons, List.of(), "", BigDecimal.ZERO);
    }

    /** A record that the views with an event time refuse for {@code reason}, the others count. */
    static Poison windowed(String id, byte[] value, String reason, String customer) {
      Map<String, String> reasons = new HashMap<>();
      WINDOWED.forEach(view -> reasons.put(view, reason));
      List<String> others = VIEWS.stream().filter(other -> !WINDOWED.contains(other)).toList();
      BigDecimal amount =
          switch (customer) {
            case "ahead" -> new BigDecimal("2");
            case "late" -> new BigDecimal("3");
            default -> BigDecimal.ONE;
          };
      return new Poison(id, value, reasons, others, customer, amount);
    }

    static Poison good(String id, byte[] value, String customer) {
      return new Poison(id, value, Map.of(), VIEWS, customer, new BigDecimal("4"));
    }

    static Poison tombstone() {
      return new Poison("tombstone", null, Map.of(), List.of(), "", BigDecimal.ZERO);
    }

    ProducerRecord<byte[], byte[]> record(int position) {
      RecordHeaders headers = new RecordHeaders();
      headers.add(ID, this.id.getBytes(StandardCharsets.UTF_8));
      return new ProducerRecord<>(
          ORDERS,
          0,
          null,
          ("o-poison-" + position).getBytes(StandardCharsets.UTF_8),
          this.value,
          headers);
    }
  }

  record Order(
      @Nullable String orderId,
      @Nullable String customerId,
      BigDecimal amount,
      @Nullable Instant ts,
      @Nullable String note) {}

  record Revenue(long orders, BigDecimal total) {}

  /** The sample's revenue: adds amounts with no bound of its own. */
  static final class RevenueAggregation implements Aggregation<String, Order, Revenue> {

    @Override
    public Revenue initial() {
      return new Revenue(0, BigDecimal.ZERO);
    }

    @Override
    public Revenue add(String customer, Order order, @Nullable Revenue revenue) {
      Revenue current = (revenue != null) ? revenue : initial();
      return new Revenue(current.orders() + 1, current.total().add(order.amount()));
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class OrderViews {

    @MaterializedView(COUNT)
    ViewDefinition<String, Order, Long> ordersPerCustomer() {
      return Views.from(ORDERS, Order.class).groupBy(String.class, Order::customerId).count();
    }

    @MaterializedView(REVENUE)
    ViewDefinition<String, Order, Revenue> revenuePerCustomer() {
      return Views.from(ORDERS, Order.class)
          .groupBy(String.class, Order::customerId)
          .aggregate(Revenue.class, new RevenueAggregation());
    }

    @MaterializedView(PER_MINUTE)
    ViewDefinition<String, Order, Long> ordersPerCustomerPerMinute() {
      return Views.from(ORDERS, Order.class)
          .eventTime(Order::ts)
          .groupBy(String.class, Order::customerId)
          .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)).withGrace(Duration.ofSeconds(10)))
          .count();
    }

    @MaterializedView(SESSIONS)
    ViewDefinition<String, Order, Long> ordersPerCustomerSession() {
      return Views.from(ORDERS, Order.class)
          .eventTime(Order::ts)
          .groupBy(String.class, Order::customerId)
          .windowedBy(ViewWindow.session(Duration.ofMinutes(1)).withGrace(Duration.ofSeconds(10)))
          .count();
    }
  }
}
