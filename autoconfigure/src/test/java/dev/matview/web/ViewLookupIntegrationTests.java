package dev.matview.web;

import static dev.matview.processes.http.HttpProbe.encode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.processes.http.HttpProbe;
import dev.matview.replica.ReplicaHandle;
import dev.matview.replica.StoreHandles;
import dev.matview.rocksdb.RocksDBMemoryLimits;
import dev.matview.rocksdb.SharedRocksDBMemory;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import org.springframework.util.unit.DataSize;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Views of every kind answer over real HTTP from real RocksDB stores fed by an in-process KRaft
 * broker, with the status codes and problem details of the API. Commits are rare, so answers must
 * not wait for Kafka Streams' record cache to be flushed.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
      "spring.kafka.streams.application-id=lookup-it",
      "spring.kafka.streams.properties.commit.interval.ms=300000",
      "spring.kafka.streams.state-dir=${java.io.tmpdir}/matview-lookup-it-${random.uuid}",
      "spring.kafka.streams.cleanup.on-shutdown=true",
      "matview.advertised-host=localhost",
      "matview.rocksdb.total-memory=32MB"
    })
@EmbeddedKafka(partitions = 3, topics = ViewLookupIntegrationTests.TOPIC)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ViewLookupIntegrationTests {

  static final String TOPIC = "sales";

  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  private final JsonMapper mapper = JsonMapper.builder().build();

  @LocalServerPort int port;

  @Autowired EmbeddedKafkaBroker broker;

  @Autowired StreamsBuilderFactoryBean streams;

  @Autowired StoreHandles handles;

  private HttpProbe http;

  @BeforeAll
  void publishSales() {
    this.http = HttpProbe.localhost(this.port);
    Map<String, Object> config = KafkaTestUtils.producerProps(this.broker);
    try (Producer<String, String> producer =
        new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
      send(producer, "shop-1", new Sale("shop-1", "alice", 2, "10.50", T0.plusSeconds(5)));
      send(producer, "shop-1", new Sale("shop-1", "bob", 5, "3.25", T0.plusSeconds(40)));
      send(producer, "shop-2", new Sale("shop-2", "alice", 1, "7.00", T0.plusSeconds(70)));
      producer.send(new ProducerRecord<>(TOPIC, "shop-2", "{not json"));
      send(producer, "shop-2", new Sale("shop-2", "alice", 3, "1.25", T0.plusSeconds(1000)));
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              assertThat(value("/views/sales-per-shop/keys/shop-1")).isEqualTo("2");
              assertThat(value("/views/sales-per-shop/keys/shop-2")).isEqualTo("2");
              assertThat(value("/views/revenue-per-customer/keys/alice")).isEqualTo("18.75");
              assertThat(value("/views/revenue-per-customer/keys/bob")).isEqualTo("3.25");
              for (int quantity : List.of(1, 2, 3, 5)) {
                assertThat(value("/views/per-quantity/keys/" + quantity)).isEqualTo("1");
              }
              assertThat(value("/views/quantity-per-shop/keys/shop-2")).isEqualTo("4");
              assertThat(value("/views/per-shop-customer/keys/" + shop2Alice())).isEqualTo("2");
              assertThat(this.http.get(sessionsOfAlice()).json().path("windows")).hasSize(2);
            });
  }

  @Test
  void answersTheCountOfAKeyWithTheHeadersOfTheAnsweringReplica() {
    HttpProbe.Answer answer = this.http.get("/views/sales-per-shop/keys/shop-1");
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.json().path("key").asString()).isEqualTo("shop-1");
    assertThat(answer.json().path("value").asLong()).isEqualTo(2);
    assertThat(answer.header("Matview-Served-By")).isEqualTo("localhost:" + this.port);
    assertThat(answer.header("Matview-Replica")).isEqualTo("active");
    assertThat(answer.header("Matview-Offset-Lag")).isEqualTo("0");
  }

  @Test
  void readsAValueByHandleWithTheChangelogTopicThatKafkaStreamsWroteItFor() {
    assertEveryPartitionHeldByAReadyHandle("quantity-per-shop");
    for (String shop : List.of("shop-1", "shop-2")) {
      HttpProbe.Answer answer = this.http.get("/views/quantity-per-shop/keys/" + shop);
      assertThat(answer.status()).as(answer.body()).isEqualTo(200);
      assertThat(answer.json().path("value").asLong()).isEqualTo(shop.equals("shop-1") ? 7 : 4);
    }
  }

  @Test
  void holdsEveryPartitionOfATableViewsStoreByHandleReadyToAnswerAsTheActiveReplica() {
    assertEveryPartitionHeldByAReadyHandle("sales-per-shop");
    assertThat(this.handles.handle("sales-per-shop", 3)).isNull();
  }

  @Test
  void scansEveryKeyOnceAcrossPagesInPartitionThenKeyOrder() {
    List<String> keys = new java.util.ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      JsonNode page =
          this.http
              .get(
                  "/views/revenue-per-customer/keys?limit=1"
                      + (cursor != null ? "&cursor=" + cursor : ""))
              .json();
      page.path("items").forEach(item -> keys.add(item.path("key").asString()));
      cursor = page.path("nextCursor").isNull() ? null : page.path("nextCursor").asString();
      pages++;
    } while (cursor != null && pages < 10);
    assertThat(keys).containsExactlyInAnyOrder("alice", "bob");
    JsonNode bounded = this.http.get("/views/per-quantity/keys?from=2&to=3").json();
    assertThat(bounded.path("items"))
        .extracting(item -> item.path("key").asLong())
        .containsExactlyInAnyOrder(2L, 3L);
  }

  @Test
  void scansWindowsOfAllKeys() {
    JsonNode page =
        this.http
            .get("/views/sales-per-minute/windows?from=" + T0 + "&to=" + T0.plusSeconds(3600))
            .json();
    assertThat(page.path("items"))
        .extracting(item -> item.path("key").asString() + "@" + item.path("start").asString())
        .containsExactlyInAnyOrder(
            "shop-1@" + T0, "shop-2@" + T0.plusSeconds(60), "shop-2@" + T0.plusSeconds(960));
    assertThat(page.path("nextCursor").isNull()).isTrue();
  }

  @Test
  void scansTheSessionsStartingInTheRangeOnceAcrossPagesOfOne() {
    String first =
        "/views/sessions-per-customer/windows?from="
            + T0.plusSeconds(10)
            + "&to="
            + T0.plusSeconds(3600)
            + "&limit=1";
    List<String> sessions = new java.util.ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      HttpProbe.Answer answer =
          this.http.get(first + (cursor != null ? "&cursor=" + encode(cursor) : ""));
      assertThat(answer.status()).isEqualTo(200);
      JsonNode page = answer.json();
      page.path("items")
          .forEach(
              item ->
                  sessions.add(
                      item.path("key").asString()
                          + "@"
                          + item.path("start").asString()
                          + ".."
                          + item.path("end").asString()
                          + "="
                          + item.path("value").asLong()));
      cursor = page.path("nextCursor").isNull() ? null : page.path("nextCursor").asString();
      pages++;
    } while (cursor != null && pages < 10);
    assertThat(sessions)
        .containsExactlyInAnyOrder(
            "bob@" + T0.plusSeconds(40) + ".." + T0.plusSeconds(40) + "=1",
            "alice@" + T0.plusSeconds(1000) + ".." + T0.plusSeconds(1000) + "=1");
  }

  @Test
  void answersABatchInTheOrderAsked() {
    JsonNode items =
        this.http
            .post(
                "/views/revenue-per-customer/batch", "{\"keys\": [\"bob\", \"nobody\", \"alice\"]}")
            .json()
            .path("items");
    assertThat(items).hasSize(3);
    assertThat(items.get(0).path("key").asString()).isEqualTo("bob");
    assertThat(items.get(0).path("value").decimalValue()).isEqualByComparingTo("3.25");
    assertThat(items.get(1).path("found").asBoolean()).isFalse();
    assertThat(items.get(1).path("value").isNull()).isTrue();
    assertThat(items.get(2).path("value").decimalValue()).isEqualByComparingTo("18.75");
  }

  @Test
  void saysBadRequestForABadLimitCursorOrBatch() {
    assertThat(
            this.http.get("/views/sales-per-shop/keys?limit=0").json().path("parameter").asString())
        .isEqualTo("limit");
    assertThat(this.http.get("/views/sales-per-shop/keys?limit=1001").status()).isEqualTo(400);
    HttpProbe.Answer badCursor =
        this.http.get("/views/sales-per-shop/keys?cursor=AAAAAAAAAAAAAAAAAAAA");
    assertThat(badCursor.status()).isEqualTo(400);
    assertThat(badCursor.json().path("parameter").asString()).isEqualTo("cursor");
    HttpProbe.Answer badKey =
        this.http.post("/views/per-quantity/batch", "{\"keys\": [1, \"two\"]}");
    assertThat(badKey.status()).isEqualTo(400);
    assertThat(badKey.json().path("detail").asString()).contains("Key 1 of the batch");
    assertThat(this.http.post("/views/per-quantity/batch", "not json").status()).isEqualTo(400);
  }

  @Test
  void readsAsAppliedUnderAtLeastOnceAndRefusesToAskForCommittedState() {
    assertThat(value("/views/sales-per-shop/keys/shop-1?isolation=uncommitted")).isEqualTo("2");
    HttpProbe.Answer committed =
        this.http.get("/views/sales-per-shop/keys/shop-1?isolation=committed");
    assertThat(committed.status()).as(committed.describe()).isEqualTo(400);
    assertThat(committed.json().path("parameter").asString()).isEqualTo("isolation");
    assertThat(committed.json().path("detail").asString())
        .contains("needs exactly-once processing")
        .contains("processing.guarantee=exactly_once_v2");
    HttpProbe.Answer batch =
        this.http.post(
            "/views/revenue-per-customer/batch?isolation=committed", "{\"keys\": [\"bob\"]}");
    assertThat(batch.status()).as(batch.describe()).isEqualTo(400);
    HttpProbe.Answer scan = this.http.get("/views/per-quantity/keys?isolation=committed");
    assertThat(scan.status()).as(scan.describe()).isEqualTo(400);
    HttpProbe.Answer unknown = this.http.get("/views/sales-per-shop/keys/shop-1?isolation=maybe");
    assertThat(unknown.status()).as(unknown.describe()).isEqualTo(400);
    assertThat(unknown.json().path("detail").asString())
        .isEqualTo("'isolation' must be committed or uncommitted, was 'maybe'");
  }

  @Test
  void setsApplicationServerToTheRealPort() {
    assertThat(this.streams.getStreamsConfiguration())
        .containsEntry(StreamsConfig.APPLICATION_SERVER_CONFIG, "localhost:" + this.port);
  }

  @Test
  void answersAReKeyedDecimalSumAfterSkippingAMalformedRecord() {
    JsonNode alice = this.http.get("/views/revenue-per-customer/keys/alice").json();
    assertThat(alice.path("value").decimalValue()).isEqualByComparingTo("18.75");
    JsonNode bob = this.http.get("/views/revenue-per-customer/keys/bob").json();
    assertThat(bob.path("value").decimalValue()).isEqualByComparingTo("3.25");
  }

  @Test
  void answersLongAndJsonRecordKeys() {
    assertThat(this.http.get("/views/per-quantity/keys/5").json().path("value").asLong())
        .isEqualTo(1);
    HttpProbe.Answer answer = this.http.get("/views/per-shop-customer/keys/" + shop2Alice());
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.json().path("key").path("shop").asString()).isEqualTo("shop-2");
    assertThat(answer.json().path("value").asLong()).isEqualTo(2);
  }

  @Test
  void answersTumblingWindowsWithTheirBoundsInTheAskedRange() {
    HttpProbe.Answer answer =
        this.http.get(
            "/views/sales-per-minute/keys/shop-1/windows?from="
                + T0
                + "&to="
                + T0.plusSeconds(3600));
    assertThat(answer.status()).isEqualTo(200);
    JsonNode windows = answer.json().path("windows");
    assertThat(windows).hasSize(1);
    assertThat(windows.get(0).path("start").asString()).isEqualTo(T0.toString());
    assertThat(windows.get(0).path("end").asString()).isEqualTo(T0.plusSeconds(60).toString());
    assertThat(windows.get(0).path("value").asLong()).isEqualTo(2);
    JsonNode shop2 =
        this.http
            .get(
                "/views/sales-per-minute/keys/shop-2/windows?from="
                    + T0.plusSeconds(60)
                    + "&to="
                    + T0.plusSeconds(120))
            .json()
            .path("windows");
    assertThat(shop2).hasSize(1);
    assertThat(shop2.get(0).path("start").asString()).isEqualTo(T0.plusSeconds(60).toString());
  }

  @Test
  void answersSessionsWithTheirBounds() {
    JsonNode windows = this.http.get(sessionsOfAlice()).json().path("windows");
    assertThat(windows).hasSize(2);
    assertThat(windows.get(0).path("start").asString()).isEqualTo(T0.plusSeconds(5).toString());
    assertThat(windows.get(0).path("end").asString()).isEqualTo(T0.plusSeconds(70).toString());
    assertThat(windows.get(0).path("value").asLong()).isEqualTo(2);
    assertThat(windows.get(1).path("start").asString()).isEqualTo(T0.plusSeconds(1000).toString());
    assertThat(windows.get(1).path("value").asLong()).isEqualTo(1);
  }

  @Test
  void listsEveryViewWithItsStoreAndTopics() {
    JsonNode views = this.http.get("/views").json();
    assertThat(views).hasSize(7);
    JsonNode perMinute = views.get(2);
    assertThat(perMinute.path("name").asString()).isEqualTo("sales-per-minute");
    assertThat(perMinute.path("kind").asString()).isEqualTo("windowed");
    assertThat(perMinute.path("keyType").asString()).isEqualTo("String");
    assertThat(perMinute.path("valueType").asString()).isEqualTo("Long");
    assertThat(perMinute.path("window").path("size").asString()).isEqualTo("PT1M");
    assertThat(perMinute.path("window").path("retention").asString()).isEqualTo("PT2H");
    assertThat(perMinute.path("storeName").asString()).isEqualTo("sales-per-minute");
    assertThat(perMinute.path("changelogTopic").asString())
        .isEqualTo("lookup-it-sales-per-minute-changelog");
    assertThat(perMinute.path("sourceTopic").asString()).isEqualTo(TOPIC);
    assertThat(views.get(0).path("window").isNull()).isTrue();
    assertThat(views.get(3).path("kind").asString()).isEqualTo("session");
  }

  @Test
  void mirrorsTablesToCompactedAndWindowsToCompactedAndExpiringChangelogs() throws Exception {
    try (Admin admin =
        Admin.create(Map.of("bootstrap.servers", this.broker.getBrokersAsString()))) {
      ConfigResource table =
          new ConfigResource(ConfigResource.Type.TOPIC, "lookup-it-sales-per-shop-changelog");
      ConfigResource windowed =
          new ConfigResource(ConfigResource.Type.TOPIC, "lookup-it-sales-per-minute-changelog");
      Map<ConfigResource, Config> configs =
          admin.describeConfigs(List.of(table, windowed)).all().get(30, TimeUnit.SECONDS);
      assertThat(configs.get(table).get("cleanup.policy").value()).isEqualTo("compact");
      assertThat(configs.get(windowed).get("cleanup.policy").value()).isEqualTo("compact,delete");
      assertThat(Long.parseLong(configs.get(windowed).get("retention.ms").value()))
          .isGreaterThanOrEqualTo(Duration.ofHours(2).toMillis());
      assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS))
          .contains("lookup-it-revenue-per-customer-repartition")
          .doesNotContain("lookup-it-sales-per-shop-repartition");
    }
  }

  @Test
  void boundsEveryStoreByOneSharedBlockCache() {
    long bound = DataSize.ofMegabytes(32).toBytes();
    List<String> kafkasStoreCapacities =
        this.streams.getKafkaStreams().metrics().values().stream()
            .filter(metric -> metric.metricName().name().equals("block-cache-capacity"))
            .map(metric -> metric.metricValue().toString())
            .filter(capacity -> !capacity.equals("0"))
            .toList();
    assertThat(kafkasStoreCapacities)
        .as("Kafka's stores, of windowed and session views")
        .allMatch(Long.toString(bound)::equals);
    long tableStores =
        this.handles.tableStoreBytes().keySet().stream()
            .mapToLong(
                store ->
                    IntStream.range(0, 3)
                        .filter(p -> this.handles.handle(store, p) != null)
                        .count())
            .sum();
    assertThat(tableStores).as("Matview's stores, of table views").isGreaterThanOrEqualTo(6);
    Map<String, Object> configs = new HashMap<>();
    Objects.requireNonNull(this.streams.getStreamsConfiguration())
        .forEach((key, value) -> configs.put(String.valueOf(key), value));
    RocksDBMemoryLimits limits = RocksDBMemoryLimits.fromConfigs(configs);
    assertThat(limits.totalBytes()).isEqualTo(bound);
    assertThat(limits.plannedStores()).as("stores the start-up checks planned").isPositive();
    SharedRocksDBMemory memory = SharedRocksDBMemory.forLimits(limits);
    assertThat(memory.openStores())
        .as("stores opened with the bound's setter")
        .isGreaterThanOrEqualTo((int) tableStores + kafkasStoreCapacities.size());
    assertThat(memory.usedBytes()).isPositive().isLessThanOrEqualTo(bound);
  }

  @Test
  void saysNotFoundForAnUnknownViewAndAnAbsentKeyNamingTheReplicaThatHadNoValue() {
    HttpProbe.Answer unknownView = this.http.get("/views/nope/keys/shop-1");
    assertThat(unknownView.status()).isEqualTo(404);
    assertThat(unknownView.header("Content-Type")).startsWith("application/problem+json");
    assertThat(unknownView.json().path("view").asString()).isEqualTo("nope");
    HttpProbe.Answer absentKey = this.http.get("/views/sales-per-shop/keys/shop-9");
    assertThat(absentKey.status()).isEqualTo(404);
    assertThat(absentKey.json().path("key").asString()).isEqualTo("shop-9");
    assertThat(absentKey.json().path("detail").asString()).contains("no value for key 'shop-9'");
    assertThat(absentKey.header("Content-Type")).startsWith("application/problem+json");
    assertThat(absentKey.header("Matview-Served-By")).isEqualTo("localhost:" + this.port);
    assertThat(absentKey.header("Matview-Replica")).isEqualTo("active");
    assertThat(absentKey.header("Matview-Offset-Lag")).isEqualTo("0");
  }

  @Test
  void saysBadRequestForKeysAndInstantsThatCannotBeParsed() {
    HttpProbe.Answer badLong = this.http.get("/views/per-quantity/keys/five");
    assertThat(badLong.status()).isEqualTo(400);
    assertThat(badLong.json().path("detail").asString()).contains("'five' is not a Long");
    HttpProbe.Answer badRecord = this.http.get("/views/per-shop-customer/keys/" + encode("{"));
    assertThat(badRecord.status()).isEqualTo(400);
    assertThat(badRecord.json().path("parameter").asString()).isEqualTo("key");
    HttpProbe.Answer badInstant =
        this.http.get("/views/sales-per-minute/keys/shop-1/windows?from=yesterday");
    assertThat(badInstant.status()).isEqualTo(400);
    assertThat(badInstant.json().path("parameter").asString()).isEqualTo("from");
    HttpProbe.Answer reversed =
        this.http.get(
            "/views/sales-per-minute/keys/shop-1/windows?from=" + T0.plusSeconds(60) + "&to=" + T0);
    assertThat(reversed.status()).isEqualTo(400);
    assertThat(reversed.json().path("detail").asString()).contains("must not be after");
  }

  @Test
  void saysBadRequestWhenAskingATableForWindowsOrAWindowedViewForAKey() {
    assertThat(this.http.get("/views/sales-per-shop/keys/shop-1/windows").status()).isEqualTo(400);
    assertThat(this.http.get("/views/sales-per-minute/keys/shop-1").status()).isEqualTo(400);
  }

  private void assertEveryPartitionHeldByAReadyHandle(String view) {
    for (int partition = 0; partition < 3; partition++) {
      ReplicaHandle handle = this.handles.handle(view, partition);
      assertThat(handle).as("partition %d", partition).isNotNull();
      assertThat(handle.ready()).as("partition %d", partition).isTrue();
    }
  }

  private void send(Producer<String, String> producer, String key, Sale sale) {
    producer.send(new ProducerRecord<>(TOPIC, key, this.mapper.writeValueAsString(sale)));
  }

  private String value(String path) {
    return this.http.get(path).json().path("value").toString();
  }

  private static String shop2Alice() {
    return encode("{\"shop\":\"shop-2\",\"customer\":\"alice\"}");
  }

  private static String sessionsOfAlice() {
    return "/views/sessions-per-customer/keys/alice/windows?from="
        + T0.minusSeconds(60)
        + "&to="
        + T0.plusSeconds(3600);
  }

  record Sale(String shop, String customer, long quantity, BigDecimal price, Instant at) {

    Sale(String shop, String customer, long quantity, String price, Instant at) {
      this(shop, customer, quantity, new BigDecimal(price), at);
    }
  }

  record ShopCustomer(String shop, String customer) {}

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class SalesViews {

    @MaterializedView("sales-per-shop")
    ViewDefinition<String, Sale, Long> salesPerShop() {
      return Views.from(TOPIC, Sale.class).count();
    }

    @MaterializedView("revenue-per-customer")
    ViewDefinition<String, Sale, BigDecimal> revenuePerCustomer() {
      return Views.from(TOPIC, Sale.class)
          .groupBy(String.class, Sale::customer)
          .sumDecimal(Sale::price);
    }

    @MaterializedView("sales-per-minute")
    ViewDefinition<String, Sale, Long> salesPerMinute() {
      return Views.from(TOPIC, Sale.class)
          .eventTime(Sale::at)
          .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)).withRetention(Duration.ofHours(2)))
          .count();
    }

    @MaterializedView("sessions-per-customer")
    ViewDefinition<String, Sale, Long> sessionsPerCustomer() {
      return Views.from(TOPIC, Sale.class)
          .eventTime(Sale::at)
          .groupBy(String.class, Sale::customer)
          .windowedBy(ViewWindow.session(Duration.ofMinutes(5)).withGrace(Duration.ofHours(1)))
          .count();
    }

    /** Quantities per shop stored by a serde that, like a schema registry's, uses the topic. */
    @MaterializedView("quantity-per-shop")
    ViewDefinition<String, Sale, Long> quantityPerShop() {
      return Views.from(TOPIC, Sale.class)
          .sum(Sale::quantity)
          .withAggregateSerde(
              Serdes.serdeFrom(
                  (topic, total) -> (topic + "|" + total).getBytes(StandardCharsets.UTF_8),
                  (topic, bytes) -> {
                    String text = new String(bytes, StandardCharsets.UTF_8);
                    if (!text.startsWith(topic + "|")) {
                      throw new SerializationException(
                          "Read for topic " + topic + " a value written as " + text);
                    }
                    return Long.valueOf(text.substring(topic.length() + 1));
                  }));
    }

    @MaterializedView("per-quantity")
    ViewDefinition<Long, Sale, Long> perQuantity() {
      return Views.from(TOPIC, Sale.class).groupBy(Long.class, Sale::quantity).count();
    }

    @MaterializedView("per-shop-customer")
    ViewDefinition<ShopCustomer, Sale, Long> perShopCustomer() {
      return Views.from(TOPIC, Sale.class)
          .groupBy(ShopCustomer.class, sale -> new ShopCustomer(sale.shop(), sale.customer()))
          .count();
    }
  }
}
