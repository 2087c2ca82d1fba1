package dev.matview.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.processes.http.HttpProbe;
import dev.matview.replica.AppliedOffset;
import dev.matview.replica.StoreHandles;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import dev.matview.web.Consistency;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsMetadata;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Positions on a real broker with two instances: every answer carries one, a lookup that names its
 * own write with {@code after=} sees it on every instance, also while a second instance joins, a
 * lookup whose replica is behind waits for it without a thread, on the instance asked and on the
 * one it was forwarded to, or says 503, and a bound that cannot be read is a 400.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PositionIntegrationTests {

  private static final String TOPIC = "orders";

  private static final String PER_CUSTOMER = "orders-per-customer";

  private static final String PER_SHOP = "orders-per-shop";

  private static final int PARTITIONS = 4;

  private static final int WRITES = 1000;

  private static final int WRITERS = 8;

  /**
   * How long a read waits for its write: 1,000 reads sent at once must all be waiting within three
   * fifths of it, which took over 3 s on a busy 2-core machine.
   */
  private static final Duration MAX_WAIT = Duration.ofSeconds(10);

  /** How long a read that waits its whole bound takes at most to answer its 503. */
  private static final Duration WAIT_ANSWERED = MAX_WAIT.plusSeconds(10);

  private static final String SECRET = "position-it-shared-secret-0123456789abcdef";

  @TempDir static Path stateDirs;

  private final List<ClusterInstance> instances = new CopyOnWriteArrayList<>();

  private final Map<String, Long> perCustomer = new ConcurrentHashMap<>();

  private final Map<String, Long> perShop = new ConcurrentHashMap<>();

  private final JsonMapper mapper = JsonMapper.builder().build();

  private EmbeddedKafkaKraftBroker broker;

  private Producer<String, String> producer;

  @BeforeAll
  void startOneInstance() {
    this.broker = new EmbeddedKafkaKraftBroker(1, PARTITIONS, TOPIC);
    this.broker.brokerProperties(
        Map.of(
            "transaction.state.log.replication.factor", "1",
            "transaction.state.log.min.isr", "1"));
    this.broker.afterPropertiesSet();
    this.producer =
        new KafkaProducer<>(
            KafkaTestUtils.producerProps(this.broker),
            new StringSerializer(),
            new StringSerializer());
    this.instances.add(start(1));
  }

  private ClusterInstance start(int n) {
    return ClusterInstance.start(
        PositionApp.class,
        this.broker.getBrokersAsString(),
        "position-it",
        stateDirs.resolve("instance-" + n),
        "--matview.standby-replicas=1",
        "--matview.peers.secret=" + SECRET,
        "--matview.consistency.max-wait=" + MAX_WAIT.toMillis() + "ms",
        "--spring.kafka.streams.properties.processing.guarantee=exactly_once_v2");
  }

  @AfterAll
  void stopEverything() {
    this.instances.forEach(ClusterInstance::close);
    if (this.producer != null) {
      this.producer.close();
    }
    if (this.broker != null) {
      this.broker.destroy();
    }
  }

  @Test
  @Order(1)
  void everyLookupThatNamesItsOwnWriteSeesItOnEveryInstanceWhileASecondOneJoins() throws Exception {
    AtomicInteger written = new AtomicInteger();
    ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
    try {
      List<Future<?>> writing = new ArrayList<>();
      for (int writer = 0; writer < WRITERS; writer++) {
        int first = writer;
        writing.add(writers.submit(() -> writeAndReadBack(first, written)));
      }
      await("a tenth of the writes")
          .atMost(Duration.ofSeconds(120))
          .until(() -> written.get() >= WRITES / 10);
      this.instances.add(start(2));
      for (Future<?> writer : writing) {
        writer.get(5, TimeUnit.MINUTES);
      }
    } finally {
      writers.shutdownNow();
    }
    assertThat(written).hasValue(WRITES);
    assertThat(this.instances).hasSize(2);
  }

  /**
   * Writes every {@code WRITERS}th order from {@code first}, each to customers and shops no other
   * writer uses, so that each answer must hold exactly this writer's orders so far, and reads each
   * back at once with {@code after=} from the instances in turn.
   */
  private void writeAndReadBack(int first, AtomicInteger written) {
    for (int i = first; i < WRITES; i += WRITERS) {
      String customer = "customer-" + (i % 40);
      String shop = "shop-" + (i % 16);
      RecordMetadata metadata = order(shop, customer);
      ClusterInstance asked = this.instances.get(i % this.instances.size());
      String after = "after=" + TOPIC + ":" + metadata.partition() + ":" + metadata.offset();
      assertCount(asked, PER_CUSTOMER, customer, after, this.perCustomer.get(customer));
      if (i % 5 == 0) {
        assertCount(asked, PER_SHOP, shop, after, this.perShop.get(shop));
      }
      written.incrementAndGet();
    }
  }

  @Test
  @Order(2)
  void everyAnswerCarriesAPositionThatComesBackOnAnyInstance() {
    RecordMetadata written = order("shop-1", "customer-1");
    String after = "after=" + TOPIC + ":" + written.partition() + ":" + written.offset();
    HttpProbe.Answer first =
        this.instances.get(0).http().get(path(PER_CUSTOMER, "customer-1") + "?" + after);
    String position = first.header(Consistency.POSITION_HEADER);
    assertThat(position).as(first.describe()).matches("[A-Za-z0-9_-]{20,}");
    for (ClusterInstance instance : this.instances) {
      HttpProbe.Answer byHeader =
          instance.http().get(path(PER_CUSTOMER, "customer-1"), "Matview-Position", position);
      assertThat(byHeader.status()).as(byHeader.describe()).isEqualTo(200);
      assertThat(byHeader.json().path("value").asLong())
          .isEqualTo(this.perCustomer.get("customer-1"));
      assertThat(byHeader.header(Consistency.POSITION_HEADER)).isNotEmpty();
      HttpProbe.Answer byParameter =
          instance.http().get(path(PER_CUSTOMER, "customer-1") + "?position=" + position);
      assertThat(byParameter.status()).as(byParameter.describe()).isEqualTo(200);
      HttpProbe.Answer batch =
          instance
              .http()
              .post(
                  "/views/" + PER_CUSTOMER + "/batch?" + after,
                  Map.of("keys", List.of("customer-1", "customer-2", "customer-3")));
      assertThat(batch.status()).as(batch.describe()).isEqualTo(200);
      assertThat(batch.header(Consistency.POSITION_HEADER)).as(batch.describe()).isNotEmpty();
      HttpProbe.Answer scan =
          instance.http().get("/views/" + PER_SHOP + "/keys?limit=1000&" + after);
      assertThat(scan.status()).as(scan.describe()).isEqualTo(200);
      assertThat(scan.json().path("items").size()).isEqualTo(this.perShop.size());
      String scanPosition = scan.header(Consistency.POSITION_HEADER);
      assertThat(scanPosition).as(scan.describe()).isNotEmpty();
      HttpProbe.Answer again =
          instance.http().get("/views/" + PER_SHOP + "/keys?limit=1000&position=" + scanPosition);
      assertThat(again.status()).as(again.describe()).isEqualTo(200);
      assertStreamedScanHoldsTheWrite(instance, after);
    }
  }

  /** A streamed scan asked with {@code after} holds the count of every shop, that write's too. */
  private void assertStreamedScanHoldsTheWrite(ClusterInstance instance, String after) {
    HttpProbe.Answer streamed =
        instance
            .http()
            .get("/views/" + PER_SHOP + "/keys?" + after, "Accept", "application/x-ndjson");
    assertThat(streamed.status()).as(streamed.describe()).isEqualTo(200);
    Map<String, Long> counts = new TreeMap<>();
    List<String> lines = List.of(streamed.body().split("\n"));
    for (String line : lines.subList(0, lines.size() - 1)) {
      JsonNode item = this.mapper.readTree(line);
      counts.put(item.path("key").asString(), item.path("value").asLong());
    }
    assertThat(lines.get(lines.size() - 1)).isEqualTo("{\"nextCursor\":null}");
    assertThat(counts).isEqualTo(new TreeMap<>(this.perShop));
  }

  @Test
  @Order(3)
  void lookupsBatchesAndScansThatWaitForTheirWriteHoldNoThreadWhereAskedOrForwarded()
      throws Exception {
    ClusterInstance owner = this.instances.get(0);
    ClusterInstance other = this.instances.get(1);
    String customer = customerOwnedBy(owner);
    try (Producer<String, String> pending = transactionalProducer("pending-2")) {
      pending.beginTransaction();
      RecordMetadata written = order(pending, "shop-2", customer);
      String after = "after=" + TOPIC + ":" + written.partition() + ":" + written.offset();
      HttpProbe ownerHttp = owner.http().withTimeout(Duration.ofSeconds(30));
      HttpProbe otherHttp = other.http().withTimeout(Duration.ofSeconds(30));
      List<CompletableFuture<HttpProbe.Answer>> waiting = new ArrayList<>();
      for (int i = 0; i < 1_000; i++) {
        waiting.add(waitingRead(i, ownerHttp, otherHttp, customer, after));
      }
      // a thread may still be on its way back from starting a wait: only one that waits stays busy
      await("1,000 reads wait for a write not committed yet, half of them through the other")
          .atMost(MAX_WAIT.multipliedBy(3).dividedBy(5))
          .untilAsserted(
              () -> {
                assertThat(other.bean(Consistency.class).waiting())
                    .as("reads waiting on the instance that forwarded them")
                    .isEqualTo(500);
                assertThat(owner.bean(Consistency.class).waiting())
                    .as("reads waiting on the owner, 400 forwarded lookups and batches included")
                    .isGreaterThanOrEqualTo(900);
                for (ClusterInstance instance : this.instances) {
                  assertThat(instance.requestThreadsBusy())
                      .as("request threads busy on " + instance.port() + " while 1,000 reads wait")
                      .isLessThan(10);
                }
              });
      assertThat(waiting).noneMatch(CompletableFuture::isDone);
      pending.commitTransaction();
      long count = this.perCustomer.get(customer);
      for (CompletableFuture<HttpProbe.Answer> answer : waiting) {
        HttpProbe.Answer response = answer.get(30, TimeUnit.SECONDS);
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        assertThat(response.body())
            .as(response.uri().toString())
            .containsPattern(
                "\"key\":\"" + customer + "\",(\"found\":true,)?\"value\":" + count + "}");
      }
      for (ClusterInstance instance : this.instances) {
        assertThat(instance.bean(Consistency.class).waiting()).isZero();
      }
      assertThat(requestsAnswered(owner, "/forwarded-keys"))
          .as("requests that carried forwarded lookups together, each with its bound")
          .isPositive();
    }
  }

  /** How many requests {@code instance} answered on a path that ends with {@code uriEnd}. */
  private static double requestsAnswered(ClusterInstance instance, String uriEnd) {
    return instance.bean(MeterRegistry.class).find("http.server.requests").timers().stream()
        .filter(timer -> String.valueOf(timer.getId().getTag("uri")).endsWith(uriEnd))
        .mapToDouble(Timer::count)
        .sum();
  }

  /**
   * The {@code i}th of the reads that wait: every other one a lookup of the owner, the rest asked
   * of the other instance: lookups, batches of the key and scans of the view.
   */
  private static CompletableFuture<HttpProbe.Answer> waitingRead(
      int i, HttpProbe owner, HttpProbe other, String customer, String after) {
    if (i % 2 == 0) {
      return owner.sendAsync("GET", path(PER_CUSTOMER, customer) + "?" + after, null);
    }
    if (i % 10 == 1) {
      return other.sendAsync(
          "POST",
          "/views/" + PER_CUSTOMER + "/batch?" + after,
          "{\"keys\":[\"" + customer + "\"]}");
    }
    if (i % 10 == 3) {
      return other.sendAsync("GET", "/views/" + PER_CUSTOMER + "/keys?limit=1000&" + after, null);
    }
    return other.sendAsync("GET", path(PER_CUSTOMER, customer) + "?" + after, null);
  }

  @Test
  @Order(4)
  void aReplicaThatStaysBehindSays503NamingHowFarItIsNeverTheOlderValue() {
    ClusterInstance asked = this.instances.get(0);
    String customer = customerOwnedBy(asked);
    try (Producer<String, String> pending = transactionalProducer("pending-3")) {
      pending.beginTransaction();
      RecordMetadata written = order(pending, "shop-3", customer);
      HttpProbe.Answer refused =
          asked
              .http()
              .withTimeout(MAX_WAIT.multipliedBy(3))
              .get(
                  path(PER_SHOP, "shop-3")
                      + "?after="
                      + TOPIC
                      + ":"
                      + written.partition()
                      + ":"
                      + written.offset());
      assertThat(refused.status()).as(refused.describe()).isEqualTo(503);
      assertThat(refused.header("Retry-After")).isNotEmpty();
      assertThat(refused.json().path("type").asString()).endsWith("position-not-reached");
      assertThat(refused.json().path("partition").asInt()).isEqualTo(written.partition());
      assertThat(refused.json().path("requiredOffset").asLong()).isEqualTo(written.offset());
      assertThat(refused.json().path("appliedOffset").asLong()).isLessThan(written.offset());
      assertThat(refused.json().path("detail").asString())
          .contains("Partition " + written.partition(), "offset " + written.offset());
      pending.commitTransaction();
    }
    await("the write is in once committed")
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(asked.http().get(path(PER_SHOP, "shop-3")).json().path("value").asLong())
                    .isEqualTo(this.perShop.get("shop-3")));
  }

  @Test
  @Order(5)
  void refusesBoundsThatCannotBeReadWithAProblemThatSaysWhy() {
    HttpProbe http = this.instances.get(1).http();
    String token = http.get(path(PER_CUSTOMER, "customer-1")).header(Consistency.POSITION_HEADER);
    String otherView = http.get(path(PER_SHOP, "shop-1")).header(Consistency.POSITION_HEADER);
    // a character of the signature, which ends the token, but not the last: that one may carry
    // only Base64's unused low bits
    int middle = token.length() - 3;
    char flipped = token.charAt(middle) == 'A' ? 'B' : 'A';
    Map<String, String> refused = new HashMap<>();
    refused.put(
        "position=" + token.substring(0, middle) + flipped + token.substring(middle + 1),
        "signature");
    refused.put("position=" + token.substring(0, 5), "malformed");
    refused.put("position=" + "x".repeat(7_000), "malformed");
    refused.put("position=" + "x".repeat(9_000), "too large");
    refused.put("position=" + otherView, "of view '" + PER_SHOP + "'");
    refused.put("position=%F0%9F%98%80", "malformed");
    refused.put("after=orders", "<topic>:<partition>:<offset>");
    refused.put("after=orders:0:-1", "0 or more");
    refused.put("after=payments:0:1", "reads topic 'orders'");
    refused.put("after=orders:0:999999999", "does not hold yet");
    refused.put("after=orders:99:1", "does not exist");
    refused.forEach(
        (query, why) -> {
          HttpProbe.Answer answer = http.get(path(PER_CUSTOMER, "customer-1") + "?" + query);
          assertThat(answer.status()).as(answer.describe()).isEqualTo(400);
          assertThat(answer.json().path("detail").asString()).as(query).contains(why);
        });
  }

  /**
   * Guards Kafka Streams' internal switch that writes each update's position into the changelog
   * ({@code PositionVectorConfigurer}): without it a standby never learns how far its copy is.
   */
  @Test
  @Order(6)
  void aStandbyKnowsHowFarItsCopyHasAppliedFromTheChangelog() {
    await("every standby's copy of " + PER_SHOP + " is as far as its active one")
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              int standbys = 0;
              for (StreamsMetadata host :
                  this.instances.get(0).streams().streamsMetadataForStore(PER_SHOP)) {
                ClusterInstance standby = instanceAt(host.hostInfo().port());
                ClusterInstance active =
                    this.instances.get(this.instances.get(0) == standby ? 1 : 0);
                for (TopicPartition partition : host.standbyTopicPartitions()) {
                  if (!partition.topic().equals(TOPIC)) {
                    continue;
                  }
                  AppliedOffset copy = applied(standby, PER_SHOP, partition.partition());
                  AppliedOffset original = applied(active, PER_SHOP, partition.partition());
                  assertThat(copy).isNotNull();
                  assertThat(original).isNotNull();
                  assertThat(original.applied()).isGreaterThanOrEqualTo(0);
                  assertThat(copy.applied()).isEqualTo(original.applied());
                  standbys++;
                }
              }
              assertThat(standbys).isEqualTo(PARTITIONS);
            });
  }

  private ClusterInstance instanceAt(int port) {
    return this.instances.stream()
        .filter((instance) -> instance.port() == port)
        .findFirst()
        .orElseThrow();
  }

  private static @Nullable AppliedOffset applied(
      ClusterInstance instance, String view, int partition) {
    return instance.bean(StoreHandles.class).positions().of(view, partition);
  }

  private RecordMetadata order(String shop, String customer) {
    return order(this.producer, shop, customer);
  }

  private RecordMetadata order(Producer<String, String> producer, String shop, String customer) {
    try {
      RecordMetadata written =
          producer
              .send(new ProducerRecord<>(TOPIC, shop, "{\"customer\":\"" + customer + "\"}"))
              .get(30, TimeUnit.SECONDS);
      this.perCustomer.merge(customer, 1L, Long::sum);
      this.perShop.merge(shop, 1L, Long::sum);
      return written;
    } catch (Exception ex) {
      throw new IllegalStateException("Could not publish an order", ex);
    }
  }

  /** A producer whose writes no read-committed consumer sees before it commits them. */
  private Producer<String, String> transactionalProducer(String id) {
    Map<String, Object> settings = KafkaTestUtils.producerProps(this.broker);
    settings.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "position-it-" + id);
    Producer<String, String> producer =
        new KafkaProducer<>(settings, new StringSerializer(), new StringSerializer());
    producer.initTransactions();
    return producer;
  }

  /** Asks until no 503 stands in the way; the answer must then hold exactly the writes so far. */
  private static void assertCount(
      ClusterInstance instance, String view, String key, String after, long expected) {
    await(view + " " + key + " on " + instance.port() + " answers with its write")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(50))
        .untilAsserted(
            () -> {
              HttpProbe.Answer answer =
                  instance.http().withTimeout(WAIT_ANSWERED).get(path(view, key) + "?" + after);
              assertThat(answer.status()).as(answer.describe()).isNotIn(400, 404, 500, 504);
              assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
              assertThat(answer.json().path("value").asLong())
                  .as(answer.describe())
                  .isEqualTo(expected);
            });
  }

  /** How many of Tomcat's request threads on {@code instance} are busy now. */
  private String customerOwnedBy(ClusterInstance instance) {
    for (int i = 0; i < 37; i++) {
      String customer = "customer-" + i;
      HttpProbe.Answer answer = instance.http().get(path(PER_CUSTOMER, customer));
      if (answer.header("Matview-Served-By").equals("localhost:" + instance.port())) {
        return customer;
      }
    }
    throw new IllegalStateException("No customer is owned by instance " + instance.port());
  }

  private static String path(String view, String key) {
    return "/views/" + view + "/keys/" + key;
  }

  record Purchase(String customer) {}

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class PositionApp {

    @MaterializedView(PER_CUSTOMER)
    ViewDefinition<String, Purchase, Long> ordersPerCustomer() {
      return Views.from(TOPIC, Purchase.class).groupBy(String.class, Purchase::customer).count();
    }

    @MaterializedView(PER_SHOP)
    ViewDefinition<String, Purchase, Long> ordersPerShop() {
      return Views.from(TOPIC, Purchase.class).count();
    }
  }
}
