package dev.matview.deadletter;

import static dev.matview.deadletter.DeadLetterFixtures.bytes;
import static dev.matview.deadletter.DeadLetterFixtures.header;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.topology.ViewTopologyBuilder;
import dev.matview.view.Aggregation;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * Records that views cannot use go to the dead-letter topic through Matview's handlers, with the
 * processors of every view kind, and later records are still aggregated.
 */
class DeadLetterTopologyTests {

  private static final String TOPIC = "orders";

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final JsonMapper mapper = JsonMapper.builder().build();

  private final Map<String, ViewDefinition<?, ?, ?>> views = new LinkedHashMap<>();

  private final MockProducer<byte[], byte[]> producer = DeadLetterFixtures.producer();

  private final List<DeadLetter> published = new ArrayList<>();

  @TempDir Path stateDir;

  private @Nullable TopologyTestDriver driver;

  @AfterEach
  void closeDriver() {
    if (this.driver != null) {
      this.driver.close();
    }
  }

  @Test
  void sendsAValueThatCannotBeReadOncePerViewAndGoesOn() {
    this.views.put("per-customer", Views.from(TOPIC, Order.class).count());
    this.views.put("per-minute", perMinute());
    TestInputTopic<String, byte[]> input = start();
    input.pipeInput("c-1", bytes("{not json"), T0);
    input.pipeInput("c-1", order(1, T0), T0);
    assertThat(this.producer.history())
        .extracting(letter -> header(letter.headers(), DeadLetterHeaders.VIEW))
        .containsExactly("per-customer", "per-minute");
    ProducerRecord<byte[], byte[]> letter = this.producer.history().get(0);
    assertThat(letter.key()).isEqualTo(bytes("c-1"));
    assertThat(letter.value()).isEqualTo(bytes("{not json"));
    assertThat(header(letter.headers(), DeadLetterHeaders.REASON)).isEqualTo("deserialization");
    assertThat(header(letter.headers(), DeadLetterHeaders.TOPIC)).isEqualTo(TOPIC);
    assertThat(header(letter.headers(), DeadLetterHeaders.OFFSET)).isEqualTo("0");
    assertThat(header(letter.headers(), DeadLetterHeaders.PROCESSOR))
        .isEqualTo("per-customer-decode");
    assertThat(this.driver.<String, Long>getKeyValueStore("per-customer").get("c-1")).isEqualTo(1L);
    assertThat(windowCount("per-minute", "c-1")).isEqualTo(1L);
  }

  @Test
  void sendsARecordWithoutEventTimeForTheViewThatNeedsIt() {
    this.views.put("per-customer", Views.from(TOPIC, Order.class).count());
    this.views.put("per-minute", perMinute());
    TestInputTopic<String, byte[]> input = start();
    input.pipeInput("c-1", order(1, null), T0);
    assertThat(this.published)
        .extracting(DeadLetter::view, letter -> letter.reason().tag())
        .containsExactly(tuple("per-minute", "event-time"));
    assertThat(this.driver.<String, Long>getKeyValueStore("per-customer").get("c-1")).isEqualTo(1L);
  }

  @Test
  void sendsARecordWhoseAggregationThrowsForTablesWindowsAndReKeyedViews() {
    this.views.put("picky", Views.from(TOPIC, Order.class).aggregate(Long.class, new Picky()));
    this.views.put(
        "picky-per-minute",
        Views.from(TOPIC, Order.class)
            .eventTime(Order::at)
            .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)))
            .aggregate(Long.class, new Picky()));
    this.views.put(
        "picky-rekeyed",
        Views.from(TOPIC, Order.class)
            .groupBy(String.class, order -> "all")
            .aggregate(Long.class, new Picky()));
    TestInputTopic<String, byte[]> input = start();
    input.pipeInput("c-1", order(13, T0), T0);
    input.pipeInput("c-1", order(2, T0), T0);
    assertThat(this.published)
        .extracting(DeadLetter::view, letter -> letter.reason().tag(), DeadLetter::topic)
        .containsExactlyInAnyOrder(
            tuple("picky", "aggregation", TOPIC),
            tuple("picky-per-minute", "aggregation", TOPIC),
            tuple("picky-rekeyed", "aggregation", "app-picky-rekeyed-repartition"));
    assertThat(this.published)
        .allSatisfy(letter -> assertThat(letter.exception()).hasMessage("13 is unlucky"));
    assertThat(this.driver.<String, Long>getKeyValueStore("picky").get("c-1")).isEqualTo(2L);
    assertThat(this.driver.<String, Long>getKeyValueStore("picky-rekeyed").get("all"))
        .isEqualTo(2L);
  }

  @Test
  void sendsASessionRecordThatArrivesAfterItsSessionClosedFromTheLateGateAndGoesOn() {
    this.views.put(
        "sessions",
        Views.from(TOPIC, Order.class)
            .eventTime(Order::at)
            .windowedBy(ViewWindow.session(Duration.ofMinutes(5)).withGrace(Duration.ofMinutes(1)))
            .count());
    TestInputTopic<String, byte[]> input = start();
    input.pipeInput("c-1", order(1, T0), T0);
    input.pipeInput("c-2", order(1, T0.plusSeconds(1200)), T0);
    input.pipeInput("c-1", order(1, T0.plusSeconds(60)), T0);
    input.pipeInput("c-1", order(1, T0.plusSeconds(1200)), T0);
    assertThat(this.published)
        .extracting(DeadLetter::view, letter -> letter.reason().tag(), DeadLetter::processor)
        .containsExactly(tuple("sessions", "late", "sessions-late-gate"));
    SessionStore<String, Long> sessions = this.driver.getSessionStore("sessions");
    long end = T0.plusSeconds(1200).toEpochMilli();
    assertThat(sessions.fetchSession("c-1", T0.toEpochMilli(), T0.toEpochMilli())).isEqualTo(1L);
    assertThat(sessions.fetchSession("c-1", end, end)).isEqualTo(1L);
  }

  @Test
  void neverStoresAnAggregateOutsideTheDecimalBoundsAndKeepsTheLastOneItCanReadBack() {
    this.views.put(
        "total", Views.from(TOPIC, Order.class).aggregate(BigDecimal.class, new UnboundedTotal()));
    TestInputTopic<String, byte[]> input = start();
    input.pipeInput("c-1", order(1, T0), T0);
    input.pipeInput("c-1", order(7, T0), T0);
    input.pipeInput("c-1", order(2, T0), T0);
    assertThat(this.published)
        .extracting(DeadLetter::view, letter -> letter.reason().tag())
        .containsExactly(tuple("total", "number-out-of-bounds"));
    assertThat(this.driver.<String, BigDecimal>getKeyValueStore("total").get("c-1"))
        .isEqualByComparingTo("3");
  }

  @Test
  void sendsAForgedRepartitionRecordThatCannotBeReadFromItsReaderAndGoesOn() {
    this.views.put(
        "per-quantity",
        Views.from(TOPIC, Order.class).groupBy(Long.class, Order::quantity).count());
    TestInputTopic<String, byte[]> input = start();
    TestInputTopic<Long, byte[]> repartition =
        this.driver.createInputTopic(
            "app-per-quantity-repartition", new LongSerializer(), new ByteArraySerializer());
    repartition.pipeInput(1L, bytes("{not json"), T0);
    repartition.pipeInput(1L, new byte[2 * 1024 * 1024], T0);
    input.pipeInput("c-1", order(1, T0), T0);
    assertThat(this.published)
        .extracting(
            DeadLetter::view,
            letter -> letter.reason().tag(),
            DeadLetter::processor,
            DeadLetter::topic)
        .containsOnly(
            tuple(
                "per-quantity",
                "deserialization",
                "per-quantity-decode-repartitioned",
                "app-per-quantity-repartition"))
        .hasSize(2);
    assertThat(this.producer.history().get(0).value()).isEqualTo(bytes("{not json"));
    assertThat(this.driver.<Long, Long>getKeyValueStore("per-quantity").get(1L)).isEqualTo(1L);
  }

  @Test
  void sendsARecordWhoseKeyCannotBeDeserialized() {
    this.views.put("per-id", Views.from(TOPIC, Long.class, Order.class).count());
    TestInputTopic<byte[], byte[]> input = start(new ByteArraySerializer());
    input.pipeInput(bytes("abc"), order(1, T0), T0);
    assertThat(this.published)
        .extracting(DeadLetter::view, letter -> letter.reason().tag(), DeadLetter::processor)
        .containsExactly(tuple("per-id", "deserialization", TOPIC + "-source"));
    assertThat(this.producer.history().get(0).key()).isEqualTo(bytes("abc"));
  }

  private ViewDefinition<String, Order, Long> perMinute() {
    return Views.from(TOPIC, Order.class)
        .eventTime(Order::at)
        .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)))
        .count();
  }

  private TestInputTopic<String, byte[]> start() {
    return start(new StringSerializer());
  }

  private <K> TestInputTopic<K, byte[]> start(Serializer<K> keySerializer) {
    ViewRegistry registry = ViewRegistry.of(this.views, new ViewSerdes(this.mapper), "app");
    StreamsBuilder builder = new StreamsBuilder();
    new ViewTopologyBuilder(builder).addAll(registry);
    Properties config = new Properties();
    config.put(StreamsConfig.APPLICATION_ID_CONFIG, "app");
    config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    config.put(StreamsConfig.STATE_DIR_CONFIG, this.stateDir.toString());
    config.put(
        StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
        DeadLetterDeserializationExceptionHandler.class.getName());
    config.put(
        StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
        DeadLetterProcessingExceptionHandler.class.getName());
    config.put(
        DeadLetters.CONFIG,
        new DeadLetters(
            ViewLocator.of(registry),
            new DeadLetterPublisher("app-dlq", () -> this.producer, this.published::add, 1048576)));
    this.driver = new TopologyTestDriver(builder.build(), config);
    return this.driver.createInputTopic(TOPIC, keySerializer, new ByteArraySerializer());
  }

  private byte[] order(long quantity, @Nullable Instant at) {
    return this.mapper.writeValueAsBytes(new Order(quantity, at));
  }

  private @Nullable Long windowCount(String store, String key) {
    try (WindowStoreIterator<Long> windows =
        this.driver.<String, Long>getWindowStore(store).fetch(key, T0, T0)) {
      return windows.hasNext() ? windows.next().value : null;
    }
  }

  record Order(long quantity, @Nullable Instant at) {}

  /** Adds quantities, but turns 7 into a total with 2000 digits: an aggregation with no bound. */
  static final class UnboundedTotal implements Aggregation<Object, Order, BigDecimal> {

    @Override
    public BigDecimal initial() {
      return BigDecimal.ZERO;
    }

    @Override
    public BigDecimal add(Object key, Order order, @Nullable BigDecimal total) {
      BigDecimal sum = (total != null) ? total : BigDecimal.ZERO;
      return (order.quantity() == 7)
          ? sum.add(new BigDecimal("1e2000"))
          : sum.add(BigDecimal.valueOf(order.quantity()));
    }
  }

  /** Sums quantities, but refuses 13. */
  static final class Picky implements Aggregation<Object, Order, Long> {

    @Override
    public Long initial() {
      return 0L;
    }

    @Override
    public Long add(Object key, Order order, @Nullable Long sum) {
      if (order.quantity() == 13) {
        throw new IllegalArgumentException("13 is unlucky");
      }
      return (sum != null ? sum : 0L) + order.quantity();
    }
  }
}
