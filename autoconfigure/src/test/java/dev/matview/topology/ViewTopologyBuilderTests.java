package dev.matview.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.matview.replica.ReplicaHandle;
import dev.matview.replica.StoreHandles;
import dev.matview.view.MergeableAggregation;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.apache.kafka.streams.test.TestRecord;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/** Every aggregation and window kind, run through Kafka Streams' {@link TopologyTestDriver}. */
class ViewTopologyBuilderTests {

  private static final String TOPIC = "sales";

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final JsonMapper mapper = JsonMapper.builder().build();

  private final Map<String, ViewDefinition<?, ?, ?>> views = new LinkedHashMap<>();

  private final Properties config = new Properties();

  private final List<String> drops = new ArrayList<>();

  private RecordRules rules = RecordRules.STANDARD;

  private final StoreHandles handles = new StoreHandles();

  @TempDir Path stateDir;

  private @Nullable TopologyTestDriver driver;

  private @Nullable TestInputTopic<String, byte[]> input;

  @AfterEach
  void closeDriver() {
    if (this.driver != null) {
      this.driver.close();
    }
  }

  @Test
  void countsRecordsPerRecordKey() {
    view("per-shop", Views.from(TOPIC, Sale.class).count());
    start();
    send("shop-1", sale("shop-1", 5));
    send("shop-1", sale("shop-1", 7));
    send("shop-2", sale("shop-2", 1));
    assertThat(table("per-shop")).containsEntry("shop-1", 2L).containsEntry("shop-2", 1L);
  }

  @Test
  void aCommitWritesTheRecordCachesUpdatesToRocksDbAndClearsTheirMarks() {
    view("per-shop", Views.from(TOPIC, Sale.class).count());
    start();
    send("shop-1", sale("shop-1", 5));
    send("shop-1", sale("shop-1", 7));
    ReplicaHandle handle = this.handles.handle("per-shop", 0);
    assertThat(handle).isNotNull();
    assertThat(handle.hasUnwritten()).as("keys the cache holds unwritten after a commit").isFalse();
    byte[] stored = handle.get("shop-1".getBytes(StandardCharsets.UTF_8));
    assertThat(stored).isNotNull();
    assertThat(stored).hasSize(2 * Long.BYTES);
    assertThat(ByteBuffer.wrap(stored).getLong(Long.BYTES))
        .as("the count after the timestamp")
        .isEqualTo(2);
  }

  @Test
  void countsRecordsPerKeyComputedFromTheValueThroughARepartitionTopic() {
    view(
        "per-customer",
        Views.from(TOPIC, Sale.class).groupBy(String.class, Sale::customer).count());
    start();
    send("order-1", sale("shop-1", "alice", 5, T0));
    send("order-2", sale("shop-2", "alice", 7, T0));
    send("order-3", sale("shop-1", "bob", 1, T0));
    assertThat(table("per-customer")).containsEntry("alice", 2L).containsEntry("bob", 1L);
    assertThat(describe().subtopologies()).hasSize(2);
    assertThat(describe().toString()).contains("per-customer-repartition");
  }

  @Test
  void aRepartitionTopicCarriesEachValueAsTheBytesItWasReadFromWithItsSourceOffset() {
    view(
        "per-customer",
        Views.from(TOPIC, Sale.class).groupBy(String.class, Sale::customer).count());
    start();
    byte[] asSent =
        """
        { "customer" : "alice", "shop" : "shop-1", "quantity" : 5,
          "price" : 1.50, "at" : "2026-01-01T00:00:00Z" }"""
            .getBytes(StandardCharsets.UTF_8);
    assertThat(this.mapper.writeValueAsBytes(this.mapper.readValue(asSent, Sale.class)))
        .as("the value encoded again, which the repartition topic does not carry")
        .isNotEqualTo(asSent);
    this.input.pipeInput("order-1", asSent, T0);
    List<TestRecord<String, byte[]>> repartitioned =
        this.driver
            .createOutputTopic(
                "test-app-per-customer-repartition",
                new StringDeserializer(),
                new ByteArrayDeserializer())
            .readRecordsToList();
    assertThat(repartitioned).hasSize(1);
    TestRecord<String, byte[]> record = repartitioned.get(0);
    assertThat(record.key()).isEqualTo("alice");
    assertThat(record.value()).isEqualTo(asSent);
    Header input = record.headers().lastHeader(InputOffsetHeader.KEY);
    assertThat(InputOffsetHeader.partition(input)).isZero();
    assertThat(InputOffsetHeader.offset(input)).isZero();
    assertThat(table("per-customer")).containsEntry("alice", 1L);
  }

  @Test
  void refusesAValueItCannotReadAfterTheRepartitionTopic() {
    view(
        "per-customer",
        Views.from(TOPIC, Sale.class).groupBy(String.class, Sale::customer).count());
    start();
    TestInputTopic<String, byte[]> repartition =
        this.driver.createInputTopic(
            "test-app-per-customer-repartition", new StringSerializer(), new ByteArraySerializer());
    Throwable failure =
        catchThrowable(
            () -> repartition.pipeInput("alice", "not json".getBytes(StandardCharsets.UTF_8)));
    RecordDecodingException decoding = null;
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof RecordDecodingException found) {
        decoding = found;
      }
    }
    assertThat(decoding).as("the failure of " + failure).isNotNull();
    assertThat(decoding.problem()).isEqualTo(RecordDecodingException.Problem.UNREADABLE_VALUE);
    assertThat(decoding.view()).isEqualTo("per-customer");
    assertThat(table("per-customer")).isEmpty();
  }

  @Test
  void sumsWholeNumbersAndDecimals() {
    view("total", Views.from(TOPIC, Sale.class).sum(Sale::quantity));
    view("revenue", Views.from(TOPIC, Sale.class).sumDecimal(Sale::price));
    start();
    send("shop-1", new Sale("shop-1", "alice", 3, new BigDecimal("10.10"), T0));
    send("shop-1", new Sale("shop-1", "bob", 4, new BigDecimal("0.25"), T0));
    assertThat(table("total")).containsEntry("shop-1", 7L);
    assertThat(this.<BigDecimal>table("revenue").get("shop-1")).isEqualByComparingTo("10.35");
  }

  @Test
  void keepsTheSmallestAndTheLargestValue() {
    view("smallest", Views.from(TOPIC, Sale.class).min(Long.class, Sale::quantity));
    view("largest", Views.from(TOPIC, Sale.class).max(Long.class, Sale::quantity));
    start();
    for (long quantity : new long[] {5, 2, 9, 4}) {
      send("shop-1", sale("shop-1", quantity));
    }
    assertThat(table("smallest")).containsEntry("shop-1", 2L);
    assertThat(table("largest")).containsEntry("shop-1", 9L);
  }

  @Test
  void keepsTheLatestValue() {
    view("latest", Views.from(TOPIC, Sale.class).latest());
    start();
    send("shop-1", sale("shop-1", 5));
    send("shop-1", sale("shop-1", 6));
    assertThat(table("latest")).containsEntry("shop-1", sale("shop-1", 6));
  }

  @Test
  void foldsWithACustomAggregation() {
    view(
        "customers",
        Views.from(TOPIC, Sale.class).aggregate(Customers.class, new CustomersAggregation()));
    start();
    send("shop-1", sale("shop-1", "alice", 1, T0));
    send("shop-1", sale("shop-1", "bob", 1, T0));
    send("shop-1", sale("shop-1", "alice", 1, T0));
    assertThat(table("customers"))
        .containsEntry("shop-1", new Customers(List.of("alice", "bob", "alice")));
  }

  @Test
  void countsPerTumblingWindowOnEventTimeFromTheValue() {
    view(
        "per-minute",
        Views.from(TOPIC, Sale.class)
            .eventTime(Sale::at)
            .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1))));
    start();
    send("shop-1", sale("shop-1", "alice", 1, T0.plusSeconds(10)));
    send("shop-1", sale("shop-1", "alice", 1, T0.plusSeconds(50)));
    send("shop-1", sale("shop-1", "alice", 1, T0.plusSeconds(65)));
    assertThat(windows("per-minute", "shop-1"))
        .containsExactly(KeyValue.pair(T0, 2L), KeyValue.pair(T0.plusSeconds(60), 1L));
  }

  @Test
  void dropsRecordsLaterThanTheGracePeriod() {
    this.rules = new RecordRules(EventTimeBounds.STANDARD, false, this::dropped);
    view(
        "per-minute",
        Views.from(TOPIC, Sale.class)
            .eventTime(Sale::at)
            .windowedBy(
                ViewWindow.tumbling(Duration.ofMinutes(1)).withGrace(Duration.ofSeconds(30))));
    start();
    send("shop-1", sale("shop-1", "alice", 1, T0.plusSeconds(10)));
    send("shop-1", sale("shop-1", "alice", 1, T0.plusSeconds(85)));
    send("shop-1", sale("shop-1", "alice", 1, T0.plusSeconds(20)));
    send("shop-1", sale("shop-1", "alice", 1, T0.plusSeconds(95)));
    send("shop-1", sale("shop-1", "alice", 1, T0.plusSeconds(30)));
    assertThat(windows("per-minute", "shop-1"))
        .containsExactly(KeyValue.pair(T0, 2L), KeyValue.pair(T0.plusSeconds(60), 2L));
    assertThat(this.drops).containsExactly("per-minute:late");
  }

  @Test
  void refusesARecordWhoseEveryWindowClosedAsLateBeforeKafkaStreamsCouldDropItSilently() {
    view(
        "per-minute",
        Views.from(TOPIC, Sale.class)
            .eventTime(Sale::at)
            .groupBy(String.class, Sale::customer)
            .windowedBy(
                ViewWindow.tumbling(Duration.ofMinutes(1)).withGrace(Duration.ofSeconds(30))));
    start();
    send("shop-1", sale("shop-1", "alice", 1, T0.plusSeconds(95)));
    RecordDecodingException late =
        decodingFailure("shop-1", this.mapper.writeValueAsBytes(sale("shop-1", "alice", 1, T0)));
    assertThat(late.problem()).isEqualTo(RecordDecodingException.Problem.LATE);
    assertThat(late.getMessage()).contains("after its window closed", "PT30S");
  }

  @Test
  void addsARecordLateForSomeHoppingWindowsToTheOpenOnesAndCountsItLate() {
    this.rules = new RecordRules(EventTimeBounds.STANDARD, true, this::dropped);
    view(
        "hopping",
        Views.from(TOPIC, Sale.class)
            .eventTime(Sale::at)
            .windowedBy(ViewWindow.hopping(Duration.ofMinutes(1), Duration.ofSeconds(30))));
    start();
    send("shop-1", sale("shop-1", "alice", 1, T0.plusSeconds(70)));
    send("shop-1", sale("shop-1", "alice", 1, T0.plusSeconds(40)));
    assertThat(windows("hopping", "shop-1"))
        .contains(KeyValue.pair(T0.plusSeconds(30), 2L), KeyValue.pair(T0.plusSeconds(60), 1L))
        .doesNotContain(KeyValue.pair(T0, 1L));
    assertThat(this.drops).containsExactly("hopping:late");
  }

  @Test
  void refusesAnEventTimeFurtherAheadThanTheBoundBeforeItIsRepartitioned() {
    view(
        "per-customer",
        Views.from(TOPIC, Sale.class)
            .eventTime(Sale::at)
            .groupBy(String.class, Sale::customer)
            .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1))));
    start();
    Instant yearFiftySevenThousand = Instant.ofEpochSecond(T0.toEpochMilli());
    RecordDecodingException failure =
        decodingFailure(
            "shop-1",
            this.mapper.writeValueAsBytes(sale("shop-1", "alice", 1, yearFiftySevenThousand)));
    assertThat(failure.problem()).isEqualTo(RecordDecodingException.Problem.EVENT_TIME);
    assertThat(failure.getMessage()).contains("+57", "matview.records.max-event-time-ahead");
    assertThat(this.driver.producedTopicNames())
        .doesNotContain("test-app-per-customer-repartition");
  }

  @Test
  void acceptsEventTimesUpToTheBoundAheadOfTheClockAndRefusesLaterOnesAndOnesBefore1970() {
    Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
    this.rules =
        new RecordRules(new EventTimeBounds(Duration.ofMinutes(1), clock), true, this::dropped);
    view(
        "per-minute",
        Views.from(TOPIC, Sale.class)
            .eventTime(Sale::at)
            .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1))));
    start();
    send("shop-1", sale("shop-1", "alice", 1, T0.plusSeconds(60)));
    assertThat(windows("per-minute", "shop-1"))
        .containsExactly(KeyValue.pair(T0.plusSeconds(60), 1L));
    for (Instant refused :
        List.of(T0.plus(Duration.ofMinutes(50)), Instant.parse("1969-12-31T23:59:59Z"))) {
      assertThat(
              decodingFailure(
                      "shop-1", this.mapper.writeValueAsBytes(sale("shop-1", "alice", 1, refused)))
                  .getMessage())
          .contains("refused the record's event time " + refused);
    }
  }

  @Test
  void refusesANullGroupingKeyAndANullValueAndCountsATombstone() {
    this.rules = new RecordRules(EventTimeBounds.STANDARD, true, this::dropped);
    view("per-customer", Views.from(TOPIC, Sale.class).groupBy(String.class, Sale::customer));
    start();
    assertThat(
            decodingFailure("shop-1", this.mapper.writeValueAsBytes(sale("shop-1", null, 1, T0)))
                .problem())
        .isEqualTo(RecordDecodingException.Problem.NULL_KEY);
    assertThat(decodingFailure("shop-1", "null".getBytes(StandardCharsets.UTF_8)).problem())
        .isEqualTo(RecordDecodingException.Problem.NULL_VALUE);
    this.input.pipeInput("shop-1", (byte[]) null);
    assertThat(this.drops).containsExactly("per-customer:tombstone");
  }

  @Test
  void countsEachRecordInEveryOverlappingHoppingWindow() {
    view(
        "hopping",
        Views.from(TOPIC, Sale.class)
            .eventTime(Sale::at)
            .windowedBy(ViewWindow.hopping(Duration.ofMinutes(1), Duration.ofSeconds(30))));
    start();
    send("shop-1", sale("shop-1", "alice", 1, T0.plusSeconds(40)));
    send("shop-1", sale("shop-1", "alice", 1, T0.plusSeconds(70)));
    assertThat(windows("hopping", "shop-1"))
        .containsExactly(
            KeyValue.pair(T0, 1L),
            KeyValue.pair(T0.plusSeconds(30), 2L),
            KeyValue.pair(T0.plusSeconds(60), 1L));
  }

  @Test
  void mergesSessionsThatARecordBridges() {
    view(
        "sessions",
        Views.from(TOPIC, Sale.class)
            .eventTime(Sale::at)
            .groupBy(String.class, Sale::customer)
            .windowedBy(ViewWindow.session(Duration.ofMinutes(5)).withGrace(Duration.ofHours(1))));
    start();
    send("o-1", sale("shop-1", "alice", 1, T0));
    send("o-2", sale("shop-1", "alice", 1, T0.plusSeconds(60)));
    send("o-3", sale("shop-1", "alice", 1, T0.plusSeconds(600)));
    assertThat(sessions("sessions", "alice"))
        .containsExactly(
            KeyValue.pair(T0 + "/" + T0.plusSeconds(60), 2L),
            KeyValue.pair(T0.plusSeconds(600) + "/" + T0.plusSeconds(600), 1L));
    send("o-4", sale("shop-1", "alice", 1, T0.plusSeconds(330)));
    assertThat(sessions("sessions", "alice"))
        .containsExactly(KeyValue.pair(T0 + "/" + T0.plusSeconds(600), 4L));
  }

  @Test
  void removesTheKeyWindowOrSessionWhoseAggregateBecomesNullAndStartsAgainFromTheInitialValue() {
    view("table", Views.from(TOPIC, Sale.class).aggregate(Long.class, new ZeroRemoves()));
    view(
        "tumbling",
        Views.from(TOPIC, Sale.class)
            .eventTime(Sale::at)
            .windowedBy(minutes())
            .aggregate(Long.class, new ZeroRemoves()));
    view(
        "sessions",
        Views.from(TOPIC, Sale.class)
            .eventTime(Sale::at)
            .groupBy(String.class, Sale::customer)
            .windowedBy(ViewWindow.session(Duration.ofMinutes(5)).withGrace(Duration.ofHours(1)))
            .aggregate(Long.class, new ZeroRemoves()));
    start();
    send("alice", sale("alice", "alice", 2, T0));
    send("alice", sale("alice", "alice", 0, T0.plusSeconds(30)));
    assertThat(table("table")).doesNotContainKey("alice");
    assertThat(windows("tumbling", "alice")).isEmpty();
    assertThat(sessions("sessions", "alice")).isEmpty();
    send("alice", sale("alice", "alice", 3, T0.plusSeconds(40)));
    assertThat(table("table")).containsEntry("alice", 3L);
    assertThat(windows("tumbling", "alice")).containsExactly(KeyValue.pair(T0, 3L));
    assertThat(sessions("sessions", "alice"))
        .containsExactly(KeyValue.pair(T0.plusSeconds(40) + "/" + T0.plusSeconds(40), 3L));
  }

  @Test
  void refusesASessionRecordThatKafkaStreamsWouldDropAsLateWithReasonLate() {
    view("sessions", sessions());
    start();
    send("o-1", sale("shop-1", "alice", 1, T0));
    send("o-2", sale("shop-1", "bob", 1, T0.plusSeconds(1200)));
    RecordDecodingException late =
        decodingFailure(
            "o-3", this.mapper.writeValueAsBytes(sale("shop-1", "alice", 1, T0.plusSeconds(60))));
    assertThat(late.problem()).isEqualTo(RecordDecodingException.Problem.LATE);
    assertThat(late.view()).isEqualTo("sessions");
    assertThat(late.getMessage())
        .contains("after its session closed", "PT5M", "PT1M", T0.plusSeconds(1200).toString());
    assertThat(sessions("sessions", "alice")).containsExactly(KeyValue.pair(T0 + "/" + T0, 1L));
  }

  @Test
  void countsOnlyTheSessionRecordsThatKafkaStreamsDropsAsLateAndKeepsTheOthers() {
    this.rules = new RecordRules(EventTimeBounds.STANDARD, false, this::dropped);
    view("sessions", sessions());
    start();
    send("o-1", sale("shop-1", "alice", 1, T0));
    send("o-2", sale("shop-1", "alice", 1, T0.plusSeconds(60)));
    send("o-3", sale("shop-1", "bob", 1, T0.plusSeconds(1200)));
    // Sessions close 6 minutes (gap plus grace) behind stream time: T0 + 14 min.
    send("o-4", sale("shop-1", "alice", 1, T0.plusSeconds(900)));
    send("o-5", sale("shop-1", "carol", 1, T0.plusSeconds(960)));
    send("o-6", sale("shop-1", "carol", 1, T0.plusSeconds(720)));
    assertThat(this.drops).isEmpty();
    send("o-7", sale("shop-1", "alice", 1, T0.plusSeconds(120)));
    assertThat(this.drops).containsExactly("sessions:late");
    assertThat(sessions("sessions", "alice"))
        .containsExactly(
            KeyValue.pair(T0 + "/" + T0.plusSeconds(60), 2L),
            KeyValue.pair(T0.plusSeconds(900) + "/" + T0.plusSeconds(900), 1L));
    assertThat(sessions("sessions", "carol"))
        .containsExactly(KeyValue.pair(T0.plusSeconds(720) + "/" + T0.plusSeconds(960), 2L));
  }

  @Test
  void takesAFailedSessionAggregationOfARecordThatCouldBeLateForAFailureNotForALateRecord() {
    this.rules = new RecordRules(EventTimeBounds.STANDARD, false, this::dropped);
    view(
        "sessions",
        Views.from(TOPIC, Sale.class)
            .eventTime(Sale::at)
            .groupBy(String.class, Sale::customer)
            .windowedBy(ViewWindow.session(Duration.ofMinutes(5)).withGrace(Duration.ofMinutes(1)))
            .aggregate(Long.class, new PositiveQuantities()));
    this.config.put(
        StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
        LogAndContinueProcessingExceptionHandler.class.getName());
    start();
    send("o-1", sale("shop-1", "bob", 1, T0.plusSeconds(1200)));
    send("o-2", sale("shop-1", "carol", 1, T0.plusSeconds(960)));
    send("o-3", sale("shop-1", "carol", -1, T0.plusSeconds(720)));
    assertThat(this.drops).isEmpty();
    send("o-4", sale("shop-1", "carol", 1, T0.plusSeconds(60)));
    assertThat(this.drops).containsExactly("sessions:late");
  }

  @Test
  void refusesATableAggregateTooLargeForItsChangelogBeforeTheStoreOrTheChangelogKeepsIt() {
    view("latest", Views.from(TOPIC, Sale.class).latest());
    Sale fits = limitChangelogRecordsTo("shop-1", sale("shop-1", "alice", 1, T0));
    start();
    send("shop-1", fits);
    assertThat(refusedAsTooLarge("shop-1", sale("shop-1", "alicex", 1, T0))).isTrue();
    assertThat(table("latest")).containsEntry("shop-1", fits);
    assertThat(changelogRecords("latest")).isEqualTo(1);
  }

  @Test
  void refusesAWindowAggregateTooLargeForItsChangelogBeforeTheStoreOrTheChangelogKeepsIt() {
    view(
        "latest", Views.from(TOPIC, Sale.class).eventTime(Sale::at).windowedBy(minutes()).latest());
    Sale fits = limitChangelogRecordsTo("shop-1", sale("shop-1", "alice", 1, T0));
    start();
    send("shop-1", fits);
    assertThat(refusedAsTooLarge("shop-1", sale("shop-1", "alicex", 1, T0))).isTrue();
    assertThat(
            this.driver.<String, Sale>getWindowStore("latest").fetch("shop-1", T0.toEpochMilli()))
        .isEqualTo(fits);
    assertThat(changelogRecords("latest")).isEqualTo(1);
  }

  @Test
  void refusesASessionAggregateTooLargeForItsChangelogBeforeTheStoreOrTheChangelogKeepsIt() {
    view(
        "latest",
        Views.from(TOPIC, Sale.class)
            .eventTime(Sale::at)
            .windowedBy(ViewWindow.session(Duration.ofMinutes(5)))
            .latest());
    Sale fits = limitChangelogRecordsTo("shop-1", sale("shop-1", "alice", 1, T0));
    start();
    send("shop-1", fits);
    assertThat(refusedAsTooLarge("shop-1", sale("shop-1", "alicex", 1, T0))).isTrue();
    assertThat(
            this.driver
                .<String, Sale>getSessionStore("latest")
                .fetchSession("shop-1", T0.toEpochMilli(), T0.toEpochMilli()))
        .isEqualTo(fits);
    assertThat(changelogRecords("latest")).isEqualTo(1);
  }

  @Test
  void skipsRecordsThatCannotBeReadAndGoesOnWithKafkasLogAndContinueHandler() {
    view("per-shop", Views.from(TOPIC, Sale.class).count());
    view("per-minute", Views.from(TOPIC, Sale.class).eventTime(Sale::at).windowedBy(minutes()));
    this.config.put(
        StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
        LogAndContinueProcessingExceptionHandler.class.getName());
    start();
    this.input.pipeInput("shop-1", "not json".getBytes(StandardCharsets.UTF_8));
    send("shop-1", new Sale("shop-1", "alice", 1, BigDecimal.ONE, null));
    send("shop-1", sale("shop-1", "alice", 1, T0));
    assertThat(table("per-shop")).containsEntry("shop-1", 2L);
    assertThat(windows("per-minute", "shop-1")).containsExactly(KeyValue.pair(T0, 1L));
  }

  @Test
  void raisesADecodingExceptionNamingTheViewForAValueThatCannotBeRead() {
    view("per-shop", Views.from(TOPIC, Sale.class).count());
    start();
    RecordDecodingException failure =
        decodingFailure("shop-1", "not json".getBytes(StandardCharsets.UTF_8));
    assertThat(failure.view()).isEqualTo("per-shop");
    assertThat(failure.isEventTime()).isFalse();
    assertThat(failure).hasMessageStartingWith("View 'per-shop' cannot read the record's value");
    assertThat(failure).hasCauseInstanceOf(SerializationException.class);
  }

  @Test
  void raisesADecodingExceptionForAMissingEventTime() {
    view("per-minute", Views.from(TOPIC, Sale.class).eventTime(Sale::at).windowedBy(minutes()));
    start();
    RecordDecodingException failure =
        decodingFailure(
            "shop-1",
            this.mapper.writeValueAsBytes(new Sale("shop-1", "alice", 1, BigDecimal.ONE, null)));
    assertThat(failure.view()).isEqualTo("per-minute");
    assertThat(failure.isEventTime()).isTrue();
    assertThat(failure).hasMessage("View 'per-minute' found no event time in the record");
  }

  @Test
  void keysByLongIntegerUuidAndJsonRecord() {
    UUID id = UUID.fromString("7f1b8a40-0a64-4bd2-9c83-1c3fdc64a7f5");
    view("by-long", Views.from(TOPIC, Sale.class).groupBy(Long.class, Sale::quantity).count());
    view(
        "by-int",
        Views.from(TOPIC, Sale.class)
            .groupBy(Integer.class, sale -> (int) sale.quantity())
            .count());
    view("by-uuid", Views.from(TOPIC, Sale.class).groupBy(UUID.class, sale -> id).count());
    view(
        "by-record",
        Views.from(TOPIC, Sale.class)
            .groupBy(ShopCustomer.class, sale -> new ShopCustomer(sale.shop(), sale.customer()))
            .count());
    start();
    send("o-1", sale("shop-1", "alice", 3, T0));
    send("o-2", sale("shop-1", "alice", 3, T0));
    assertThat(this.driver.<Long, Long>getKeyValueStore("by-long").get(3L)).isEqualTo(2L);
    assertThat(this.driver.<Integer, Long>getKeyValueStore("by-int").get(3)).isEqualTo(2L);
    assertThat(this.driver.<UUID, Long>getKeyValueStore("by-uuid").get(id)).isEqualTo(2L);
    assertThat(
            this.driver
                .<ShopCustomer, Long>getKeyValueStore("by-record")
                .get(new ShopCustomer("shop-1", "alice")))
        .isEqualTo(2L);
  }

  @Test
  void readsValuesAndStoresAggregatesWithTheSerdesTheUserNames() {
    Serde<Sale> csv =
        Serdes.serdeFrom(
            (topic, sale) -> (sale.shop() + "," + sale.quantity()).getBytes(StandardCharsets.UTF_8),
            (topic, bytes) -> {
              String[] fields = new String(bytes, StandardCharsets.UTF_8).split(",");
              return new Sale(fields[0], "alice", Long.parseLong(fields[1]), BigDecimal.ONE, T0);
            });
    Serde<Long> decimalText =
        Serdes.serdeFrom(
            (topic, total) -> total.toString().getBytes(StandardCharsets.UTF_8),
            (topic, bytes) -> Long.valueOf(new String(bytes, StandardCharsets.UTF_8)));
    view(
        "csv-total",
        Views.from(TOPIC, Sale.class)
            .valueSerde(csv)
            .sum(Sale::quantity)
            .withAggregateSerde(decimalText));
    view("csv-latest", Views.from(TOPIC, Sale.class).valueSerde(csv).latest());
    start();
    this.input.pipeInput("shop-1", "shop-1,4".getBytes(StandardCharsets.UTF_8));
    this.input.pipeInput("shop-1", "shop-1,38".getBytes(StandardCharsets.UTF_8));
    assertThat(table("csv-total")).containsEntry("shop-1", 42L);
    assertThat(changelogValues("csv-total")).last().asString().endsWith("42");
    assertThat(changelogValues("csv-latest")).last().asString().endsWith("shop-1,38");
  }

  private List<String> changelogValues(String view) {
    return this.driver
        .createOutputTopic(
            "test-app-" + view + "-changelog", new StringDeserializer(), new StringDeserializer())
        .readValuesToList();
  }

  @Test
  void serializesEachAggregateOnceForItsSizeCheckAndItsStore() {
    AtomicInteger serialized = new AtomicInteger();
    Serde<Long> counted =
        Serdes.serdeFrom(
            (topic, count) -> {
              serialized.incrementAndGet();
              return Serdes.Long().serializer().serialize(topic, count);
            },
            Serdes.Long().deserializer());
    view("per-shop", Views.from(TOPIC, Sale.class).count().withAggregateSerde(counted));
    view(
        "per-minute",
        Views.from(TOPIC, Sale.class)
            .eventTime(Sale::at)
            .windowedBy(minutes())
            .count()
            .withAggregateSerde(counted));
    view("sessions", sessions().withAggregateSerde(counted));
    start();
    send("shop-1", sale("shop-1", "alice", 1, T0));
    send("shop-1", sale("shop-1", "alice", 1, T0.plusSeconds(10)));
    send("shop-2", sale("shop-2", "bob", 1, T0.plusSeconds(20)));
    assertThat(serialized).as("one serialization per update of each view").hasValue(9);
    assertThat(table("per-shop")).containsEntry("shop-1", 2L).containsEntry("shop-2", 1L);
    assertThat(windows("per-minute", "shop-1")).containsExactly(KeyValue.pair(T0, 2L));
    assertThat(sessions("sessions", "alice"))
        .containsExactly(KeyValue.pair(T0 + "/" + T0.plusSeconds(10), 2L));
    assertThat(changelogRecords("sessions"))
        .as("alice's first session, its removal, her merged session and bob's")
        .isEqualTo(4);
  }

  @Test
  void readsOneTopicOnceForSeveralViews() {
    view("per-shop", Views.from(TOPIC, Sale.class).count());
    view("total", Views.from(TOPIC, Sale.class).sum(Sale::quantity));
    start();
    send("shop-1", sale("shop-1", 4));
    assertThat(table("per-shop")).containsEntry("shop-1", 1L);
    assertThat(table("total")).containsEntry("shop-1", 4L);
    assertThat(describe().toString()).containsOnlyOnce("topics: [sales]");
  }

  private ViewWindow minutes() {
    return ViewWindow.tumbling(Duration.ofMinutes(1));
  }

  private void view(String name, dev.matview.view.ViewBuilder<String, Sale> builder) {
    view(name, builder.count());
  }

  private void view(String name, ViewDefinition<?, ?, ?> definition) {
    this.views.put(name, definition);
  }

  private void start() {
    ViewRegistry registry = ViewRegistry.of(this.views, new ViewSerdes(this.mapper), "test-app");
    StreamsBuilder builder = new StreamsBuilder();
    new ViewTopologyBuilder(builder, this.rules, this.handles).addAll(registry);
    Properties config = this.config;
    config.put(StreamsConfig.APPLICATION_ID_CONFIG, "test-app");
    config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    config.put(StreamsConfig.STATE_DIR_CONFIG, this.stateDir.toString());
    this.driver = new TopologyTestDriver(builder.build(), config);
    this.input =
        this.driver.createInputTopic(TOPIC, new StringSerializer(), new ByteArraySerializer());
  }

  private RecordDecodingException decodingFailure(String key, byte[] value) {
    Throwable failure = catchThrowable(() -> this.input.pipeInput(key, value));
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof RecordDecodingException decoding) {
        return decoding;
      }
    }
    throw new AssertionError("No RecordDecodingException in " + failure, failure);
  }

  /**
   * Limits changelog records so that {@code aggregate} under {@code key} just fits, counting the
   * bytes as the changelog gets them: the key, the aggregate without Kafka Streams' timestamp, and
   * the overhead.
   */
  private Sale limitChangelogRecordsTo(String key, Sale aggregate) {
    int bytes =
        key.getBytes(StandardCharsets.UTF_8).length
            + this.mapper.writeValueAsBytes(aggregate).length
            + ChangelogSizeGuard.OVERHEAD;
    this.rules = new RecordRules(EventTimeBounds.STANDARD, true, this::dropped, bytes);
    return aggregate;
  }

  /** Whether sending {@code sale} fails because its aggregate is one byte too large. */
  private boolean refusedAsTooLarge(String key, Sale sale) {
    Throwable failure = catchThrowable(() -> send(key, sale));
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof AggregateTooLargeException tooLarge) {
        return tooLarge
            .getMessage()
            .contains((this.rules.maxChangelogRecordBytes() + 1) + " bytes");
      }
    }
    throw new AssertionError("No AggregateTooLargeException in " + failure, failure);
  }

  private int changelogRecords(String store) {
    return this.driver
        .createOutputTopic(
            "test-app-" + store + "-changelog",
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())
        .readValuesToList()
        .size();
  }

  private void dropped(String view, String reason) {
    this.drops.add(view + ":" + reason);
  }

  private TopologyDescription describe() {
    StreamsBuilder builder = new StreamsBuilder();
    new ViewTopologyBuilder(builder)
        .addAll(ViewRegistry.of(this.views, new ViewSerdes(this.mapper), "test-app"));
    return builder.build().describe();
  }

  private void send(String key, Sale sale) {
    this.input.pipeInput(key, this.mapper.writeValueAsBytes(sale), T0);
  }

  private <V> Map<String, V> table(String store) {
    KeyValueStore<String, V> kv = this.driver.getKeyValueStore(store);
    Map<String, V> entries = new LinkedHashMap<>();
    try (KeyValueIterator<String, V> all = kv.all()) {
      all.forEachRemaining(entry -> entries.put(entry.key, entry.value));
    }
    return entries;
  }

  private List<KeyValue<Instant, Long>> windows(String store, String key) {
    WindowStore<String, Long> windowStore = this.driver.getWindowStore(store);
    List<KeyValue<Instant, Long>> windows = new ArrayList<>();
    try (WindowStoreIterator<Long> found =
        windowStore.fetch(key, T0.minusSeconds(3600), T0.plusSeconds(3600))) {
      found.forEachRemaining(
          entry -> windows.add(KeyValue.pair(Instant.ofEpochMilli(entry.key), entry.value)));
    }
    return windows;
  }

  private List<KeyValue<String, Long>> sessions(String store, String key) {
    SessionStore<String, Long> sessionStore = this.driver.getSessionStore(store);
    List<KeyValue<String, Long>> sessions = new ArrayList<>();
    try (KeyValueIterator<Windowed<String>, Long> found = sessionStore.fetch(key)) {
      found.forEachRemaining(
          entry ->
              sessions.add(
                  KeyValue.pair(
                      entry.key.window().startTime() + "/" + entry.key.window().endTime(),
                      entry.value)));
    }
    return sessions;
  }

  private static ViewDefinition<String, Sale, Long> sessions() {
    return Views.from(TOPIC, Sale.class)
        .eventTime(Sale::at)
        .groupBy(String.class, Sale::customer)
        .windowedBy(ViewWindow.session(Duration.ofMinutes(5)).withGrace(Duration.ofMinutes(1)))
        .count();
  }

  private static Sale sale(String shop, long quantity) {
    return sale(shop, "alice", quantity, T0);
  }

  private static Sale sale(String shop, @Nullable String customer, long quantity, Instant at) {
    return new Sale(shop, customer, quantity, BigDecimal.ONE, at);
  }

  record Sale(
      String shop,
      @Nullable String customer,
      long quantity,
      BigDecimal price,
      @Nullable Instant at) {}

  record ShopCustomer(String shop, String customer) {}

  record Customers(List<String> names) {}

  static final class CustomersAggregation implements MergeableAggregation<String, Sale, Customers> {

    @Override
    public Customers initial() {
      return new Customers(List.of());
    }

    @Override
    public Customers add(String key, Sale sale, @Nullable Customers customers) {
      List<String> names = new ArrayList<>(customers != null ? customers.names() : List.of());
      names.add(sale.customer());
      return new Customers(names);
    }

    @Override
    public Customers merge(String key, @Nullable Customers older, @Nullable Customers newer) {
      List<String> names = new ArrayList<>(older != null ? older.names() : List.of());
      names.addAll(newer != null ? newer.names() : List.of());
      return new Customers(names);
    }
  }

  /** Sums quantities, and a quantity of zero makes the aggregate null. */
  static final class ZeroRemoves implements MergeableAggregation<String, Sale, Long> {

    @Override
    public Long initial() {
      return 0L;
    }

    @Override
    public @Nullable Long add(String key, Sale sale, @Nullable Long total) {
      return sale.quantity() == 0 ? null : ((total != null) ? total : 0L) + sale.quantity();
    }

    @Override
    public Long merge(String key, @Nullable Long older, @Nullable Long newer) {
      return ((older != null) ? older : 0L) + ((newer != null) ? newer : 0L);
    }
  }

  /** Sums quantities and refuses a negative one, as an aggregation that fails on a record. */
  static final class PositiveQuantities implements MergeableAggregation<String, Sale, Long> {

    @Override
    public Long initial() {
      return 0L;
    }

    @Override
    public Long add(String key, Sale sale, @Nullable Long total) {
      if (sale.quantity() < 0) {
        throw new IllegalArgumentException("Negative quantity " + sale.quantity());
      }
      return ((total != null) ? total : 0L) + sale.quantity();
    }

    @Override
    public Long merge(String key, @Nullable Long older, @Nullable Long newer) {
      return ((older != null) ? older : 0L) + ((newer != null) ? newer : 0L);
    }
  }
}
