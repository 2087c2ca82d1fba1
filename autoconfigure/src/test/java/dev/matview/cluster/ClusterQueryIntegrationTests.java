package dev.matview.cluster;

import static dev.matview.processes.http.HttpProbe.encode;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.peer.PeerRequests;
import dev.matview.processes.http.HttpProbe;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Three instances of one application, on a three-broker cluster, each answer every lookup, scan and
 * batch of every key alike by asking the key's owner, and the two left answer it all once the third
 * stops. The instances serve under a servlet context path, which forwarded requests must carry.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterQueryIntegrationTests {

  static final String TOPIC = "sales";

  static final String PER_SHOP = "sales-per-shop";

  static final String PER_CUSTOMER = "sales-per-customer";

  static final String PER_MINUTE = "sales-per-shop-per-minute";

  private static final int PARTITIONS = 6;

  private static final int PAGE = 97;

  private static final String SERVED_BY = "Matview-Served-By";

  private static final String FORWARDED = "Matview-Forwarded";

  private static final String CONTEXT_PATH = "/shop";

  private static final String NDJSON = "application/x-ndjson";

  /** The most items a page, and so a slice of a partition, holds. */
  private static final int SLICE = 100;

  /**
   * The top of an hour 45 to 105 minutes ago: sales straddle it, so the windows lie in two segments
   * of the window store (its retention of two hours makes segments of one hour), and all of them
   * stay within a read's default range, the retention back from now, however long the tests run.
   */
  private static final Instant HOUR =
      Instant.now().minus(Duration.ofMinutes(45)).truncatedTo(ChronoUnit.HOURS);

  private static final Duration WINDOW = Duration.ofMinutes(1);

  private static final Sales SALES =
      Sales.generate(3000, 1000, 300, HOUR.minusSeconds(150), Duration.ofMinutes(5));

  @TempDir static Path stateDirs;

  private final JsonMapper mapper = JsonMapper.builder().build();

  private final List<Instance> instances = new ArrayList<>();

  private KafkaClusterTestKit cluster;

  @BeforeAll
  void startThreeInstancesAndPublishSales() throws Exception {
    this.cluster = startCluster();
    for (int n = 1; n <= 3; n++) {
      this.instances.add(Instance.start(n, this.cluster.bootstrapServers()));
    }
    publishSales();
    awaitEveryValueAnsweredBy(this.instances);
  }

  @AfterAll
  void stopInstancesAndCluster() throws Exception {
    this.instances.forEach(Instance::stop);
    if (this.cluster != null) {
      this.cluster.close();
    }
  }

  /**
   * Three brokers with one KRaft controller. {@code new EmbeddedKafkaKraftBroker(3, ...)} makes
   * three controllers, and with Kafka 4.1.2 two of them stop about a second after start-up
   * ("Received unexpected invalid request error" in handleUpdateVoterResponse), so the cluster has
   * no quorum.
   */
  private static KafkaClusterTestKit startCluster() throws Exception {
    KafkaClusterTestKit cluster =
        new KafkaClusterTestKit.Builder(
                new TestKitNodes.Builder()
                    .setCombined(true)
                    .setNumBrokerNodes(3)
                    .setNumControllerNodes(1)
                    .build())
            .setConfigProp("group.initial.rebalance.delay.ms", "0")
            .setConfigProp("offsets.topic.replication.factor", "3")
            .setConfigProp("transaction.state.log.replication.factor", "3")
            .build();
    cluster.format();
    cluster.startup();
    cluster.waitForReadyBrokers();
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
      admin
          .createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3)))
          .all()
          .get(30, TimeUnit.SECONDS);
      await("every broker follows every partition of " + TOPIC)
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> everyPartitionFullyReplicated(admin));
    }
    return cluster;
  }

  /**
   * Whether every partition of the topic has its three replicas in sync, which means every broker
   * knows the topic: instances that start earlier may see it missing and fail.
   */
  private static boolean everyPartitionFullyReplicated(Admin admin) throws Exception {
    TopicDescription description =
        admin.describeTopics(List.of(TOPIC)).allTopicNames().get(30, TimeUnit.SECONDS).get(TOPIC);
    return description.partitions().size() == PARTITIONS
        && description.partitions().stream().allMatch(partition -> partition.isr().size() == 3);
  }

  @Test
  @Order(1)
  void answersSampledKeysOfTablesAlikeFromEveryInstanceNamingTheOwner() {
    assertLookupsOfTables(this.instances);
  }

  @Test
  @Order(2)
  void answersTheWindowsOfSampledKeysAlikeFromEveryInstance() {
    assertLookupsOfWindows(this.instances);
  }

  @Test
  @Order(3)
  void scansEveryKeyOfATableExactlyOnceInPartitionAndKeyOrderFromEveryInstance() {
    for (Instance instance : this.instances) {
      assertTableScan(instance, PER_SHOP, SALES.perShop());
      assertTableScan(instance, PER_CUSTOMER, SALES.perCustomer());
    }
  }

  @Test
  @Order(4)
  void scansEveryWindowExactlyOnceInPartitionKeyAndStartOrderFromEveryInstance() {
    Instant from = HOUR.minus(WINDOW);
    Instant to = HOUR.plus(WINDOW);
    for (Instance instance : this.instances) {
      assertWindowScan(instance, HOUR.minus(Duration.ofHours(1)), HOUR.plus(Duration.ofHours(1)));
      assertWindowScan(instance, from, to);
    }
    assertThat(SALES.perMinute(from, to)).hasSizeLessThan(SALES.perMinute().size()).isNotEmpty();
  }

  @Test
  @Order(4)
  void streamsEveryKeyAndWindowFromEveryInstanceAskingAnotherOnceForEachPartitionItOwns() {
    Instant from = HOUR.minus(Duration.ofHours(1));
    Instant to = HOUR.plus(Duration.ofHours(1));
    for (Instance instance : this.instances) {
      long keySlices = sliceRequestsServedByOthers(instance, "keys");
      List<JsonNode> keys = streamed(instance, "/views/" + PER_SHOP + "/keys");
      assertTableItems(instance, PER_SHOP, keys, SALES.perShop());
      awaitSliceRequestsServedByOthers(
          instance, "keys", keySlices, partitionsOwnedByOthers(instance, PER_SHOP, keys));
      long windowSlices = sliceRequestsServedByOthers(instance, "windows");
      List<JsonNode> windows = streamed(instance, windowsScanPath(from, to));
      assertWindowItems(instance, from, to, windows);
      awaitSliceRequestsServedByOthers(
          instance,
          "windows",
          windowSlices,
          partitionsOwnedByOthers(instance, PER_MINUTE, windows));
    }
  }

  @Test
  @Order(5)
  void scansOnlyTheKeysBetweenTheBoundsFromEveryInstance() {
    String from = "shop-2a";
    String to = "shop-3a";
    Map<String, Long> expected = between(SALES.perShop(), from, to);
    assertThat(expected).containsKeys("shop-3", "shop-30", "shop-399").doesNotContainKey("shop-2");
    for (Instance instance : this.instances) {
      List<JsonNode> items =
          scan(
              instance,
              "/views/" + PER_SHOP + "/keys?from=" + encode(from) + "&to=" + encode(to),
              PAGE);
      List<String> keys = items.stream().map(item -> item.path("key").asString()).toList();
      assertThat(duplicates(keys)).as("keys answered more than once").isEmpty();
      assertSameEntries(instance.name() + " " + PER_SHOP, longs(items), expected);
    }
  }

  @Test
  @Order(6)
  void answersABatchCompleteAndInTheOrderAskedFromEveryInstance() {
    List<String> shops = new ArrayList<>(everyOther(SALES.perShop().keySet()));
    shops.add("shop-0");
    shops.add("no-such-shop");
    IntStream.rangeClosed(1, 1000)
        .mapToObj(n -> "shop-" + n)
        .filter(shop -> !SALES.perShop().containsKey(shop))
        .limit(3)
        .forEach(shops::add);
    Collections.shuffle(shops, new Random(7));
    List<String> customers = new ArrayList<>(SALES.perCustomer().keySet());
    customers.add("nobody");
    Collections.shuffle(customers, new Random(11));
    assertThat(partitionsOf(PER_SHOP, shops)).hasSize(PARTITIONS);
    for (Instance instance : this.instances) {
      assertBatch(instance, PER_SHOP, shops, SALES.perShop());
      assertBatch(instance, PER_CUSTOMER, customers, SALES.perCustomer());
    }
  }

  /**
   * Lookups that wait for the same instance at the same time travel to it in one request; each
   * answers exactly as it does when sent alone: status, body and the headers that name the replica.
   */
  @Test
  @Order(6)
  void answersLookupsForwardedTogetherAsEachAlone() throws Exception {
    Instance asked = this.instances.get(0);
    List<String> keys = new ArrayList<>();
    for (String key : spread(SALES.perShop().keySet(), 200)) {
      if (!owner(PER_SHOP, key, this.instances).equals(asked.address())) {
        keys.add(key);
      }
    }
    IntStream.rangeClosed(1, 60).mapToObj(n -> "no-such-shop-" + n).forEach(keys::add);
    Map<String, HttpProbe.Answer> alone = new LinkedHashMap<>();
    for (String key : keys) {
      alone.put(key, asked.http().get("/views/" + PER_SHOP + "/keys/" + encode(key)));
    }
    assertThat(alone.values()).extracting(HttpProbe.Answer::status).contains(200, 404);
    double before = forwardedTogether();
    AsyncDispatchCounter dispatches = asked.context().getBean(AsyncDispatchCounter.class);
    long asynchronousBefore = dispatches.wentAsynchronous();
    long dispatchedBefore = dispatches.dispatchedAgain();
    ExecutorService threads = Executors.newFixedThreadPool(32);
    try {
      for (int round = 0; round < 3; round++) {
        Map<String, Future<HttpProbe.Answer>> together = new LinkedHashMap<>();
        for (String key : keys) {
          together.put(
              key,
              threads.submit(
                  () -> asked.http().get("/views/" + PER_SHOP + "/keys/" + encode(key))));
        }
        for (String key : keys) {
          HttpProbe.Answer expected = alone.get(key);
          HttpProbe.Answer answer = together.get(key).get(1, TimeUnit.MINUTES);
          assertThat(answer.status()).as(answer.describe()).isEqualTo(expected.status());
          assertThat(answer.body()).as(answer.describe()).isEqualTo(expected.body());
          for (String header :
              List.of(
                  "Content-Type",
                  "Retry-After",
                  SERVED_BY,
                  "Matview-Replica",
                  "Matview-Offset-Lag")) {
            assertThat(answer.header(header))
                .as(header + " of " + answer.describe())
                .isEqualTo(expected.header(header));
          }
        }
      }
    } finally {
      threads.shutdownNow();
    }
    assertThat(forwardedTogether() - before)
        .as("requests that carried lookups forwarded together")
        .isPositive();
    assertThat(dispatches.wentAsynchronous() - asynchronousBefore)
        .as("lookups that waited for their owner's answer without a thread")
        .isPositive();
    assertThat(dispatches.dispatchedAgain() - dispatchedBefore)
        .as("lookups whose owner's answer took a second dispatch instead of being written")
        .isZero();
  }

  /**
   * The endpoints that answer lookups forwarded together, with and without a bound per key, serve
   * only the other instances: a caller without their signature, or with a wrong one, is refused
   * with a 403 problem detail.
   */
  @Test
  @Order(6)
  void refusesLookupsForwardedTogetherUnlessAnotherInstanceSignedThem() {
    Instance instance = this.instances.get(0);
    PeerRequests peer = instance.context().getBean(PeerRequests.class);
    List<String> bodies =
        List.of(
            "{\"keys\": [\"shop-1\"]}", "{\"keys\": [\"shop-1\"], \"bounds\": [{\"after\": []}]}");
    bodies.forEach(
        (keys) -> {
          String path = "/views/" + PER_SHOP + "/forwarded-keys";
          HttpProbe.Answer refused = instance.http().post(path, Map.of("keys", List.of("shop-1")));
          assertThat(refused.status()).as(refused.describe()).isEqualTo(403);
          assertThat(refused.json().path("type").asString())
              .as(refused.describe())
              .endsWith("/peers-only");
          assertThat(refused.json().path("detail").asString())
              .as(refused.describe())
              .contains("look a key of view '" + PER_SHOP + "' up at .../keys/{key}");
          HttpProbe.Answer forged =
              instance.http().post(path, keys, PeerHeaders.signed("not-a-signature"));
          assertThat(forged.status()).as(forged.describe()).isEqualTo(403);
          assertThat(forged.json().path("type").asString())
              .as(forged.describe())
              .endsWith("/invalid-peer-signature");
          HttpProbe.Answer signed =
              instance
                  .http()
                  .post(
                      path,
                      keys,
                      PeerHeaders.signedPost(peer, CONTEXT_PATH + path, keys.getBytes(UTF_8)));
          assertThat(signed.status()).as(signed.describe()).isEqualTo(200);
          assertThat(signed.json().size()).as(signed.describe()).isOne();
        });
  }

  /**
   * A signed request to the endpoints that answer lookups forwarded together, with a body no
   * instance sends (keys that are not strings, bounds that do not match them or cannot be read), is
   * refused with a 400 problem detail, never a 500.
   */
  @Test
  @Order(6)
  void refusesSignedLookupsForwardedTogetherWhoseBodyIsNotKeys() {
    Instance instance = this.instances.get(0);
    PeerRequests peer = instance.context().getBean(PeerRequests.class);
    List<String> notKeys =
        List.of(
            "{",
            "[]",
            "{\"keys\": null}",
            "{\"keys\": [1, true, null]}",
            "{\"keys\": [\"" + "k".repeat(100_000) + "\"]}");
    List<String> badBounds =
        List.of(
            "{\"keys\": [\"shop-1\"], \"bounds\": []}",
            "{\"keys\": [\"shop-1\"], \"bounds\": [{\"after\": [\"orders:x:1\"]}]}",
            "{\"keys\": [\"shop-1\"], \"bounds\": [{\"position\": \"forged\", \"after\": []}]}");
    List<List<String>> bodies = List.of(notKeys, badBounds);
    bodies.forEach(
        (refusedBodies) -> {
          String path = "/views/" + PER_SHOP + "/forwarded-keys";
          for (String body : refusedBodies) {
            HttpProbe.Answer refused =
                instance
                    .http()
                    .post(
                        path,
                        body,
                        PeerHeaders.signedPost(peer, CONTEXT_PATH + path, body.getBytes(UTF_8)));
            assertThat(refused.status()).as(refused.describe()).isEqualTo(400);
            assertThat(refused.json().path("type").asString())
                .as(refused.describe())
                .startsWith("https://matview.dev/problems/");
          }
        });
  }

  /** The requests that other instances' forwarded lookups took together, answered so far. */
  private double forwardedTogether() {
    return this.instances.stream()
        .map(instance -> instance.context().getBean(MeterRegistry.class))
        .flatMap(registry -> registry.find("http.server.requests").timers().stream())
        .filter(timer -> String.valueOf(timer.getId().getTag("uri")).endsWith("/forwarded-keys"))
        .mapToDouble(Timer::count)
        .sum();
  }

  @Test
  @Order(7)
  void refusesWithRetryAfterALookupAlreadyForwardedToAnInstanceThatDoesNotOwnTheKey() {
    PeerRequests peer = this.instances.get(0).context().getBean(PeerRequests.class);
    String shop = SALES.perShop().keySet().iterator().next();
    String path = "/views/" + PER_SHOP + "/keys/" + encode(shop);
    HttpProbe.Answer plain = this.instances.get(0).http().get(path);
    assertThat(plain.status()).as(plain.describe()).isEqualTo(200);
    String owner = plain.header(SERVED_BY);
    Instance ownerInstance = at(owner, this.instances);
    Instance other =
        this.instances.stream().filter(instance -> instance != ownerInstance).findFirst().get();
    HttpProbe.Answer refused =
        other.http().get(path, PeerHeaders.signedGet(peer, CONTEXT_PATH + path));
    assertThat(refused.status()).as(refused.describe()).isEqualTo(503);
    assertThat(refused.header("Retry-After")).as(refused.describe()).matches("[1-9][0-9]*");
    assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
    assertThat(refused.json().path("view").asString()).isEqualTo(PER_SHOP);
    assertThat(refused.body()).doesNotContain(owner, "localhost:");
    String windowsPath =
        "/views/"
            + PER_MINUTE
            + "/keys/"
            + encode(shop)
            + "/windows?from="
            + HOUR.minus(Duration.ofHours(1))
            + "&to="
            + HOUR.plus(Duration.ofHours(1));
    String windowsOwner = owner(PER_MINUTE, shop, this.instances);
    Instance notWindowsOwner =
        this.instances.stream()
            .filter(instance -> !instance.address().equals(windowsOwner))
            .findFirst()
            .get();
    HttpProbe.Answer refusedWindows =
        notWindowsOwner
            .http()
            .get(windowsPath, PeerHeaders.signedGet(peer, CONTEXT_PATH + windowsPath));
    assertThat(refusedWindows.status()).as(refusedWindows.describe()).isEqualTo(503);
    assertThat(refusedWindows.header("Retry-After")).matches("[1-9][0-9]*");
    HttpProbe.Answer answered =
        ownerInstance.http().get(path, PeerHeaders.signedGet(peer, CONTEXT_PATH + path));
    assertThat(answered.status()).as(answered.describe()).isEqualTo(200);
    assertThat(answered.json().path("value").asLong()).isEqualTo(SALES.perShop().get(shop));
    assertThat(answered.header(SERVED_BY)).isEqualTo(owner);
    HttpProbe.Answer unsigned = other.http().get(path, FORWARDED, "1");
    assertThat(unsigned.status()).as(unsigned.describe()).isEqualTo(200);
    assertThat(unsigned.header(SERVED_BY)).isEqualTo(owner);
  }

  @Test
  @Order(Integer.MAX_VALUE)
  void answersEveryKeyFromTheTwoLeftAfterAnInstanceStops() {
    String shop = SALES.perShop().keySet().iterator().next();
    Instance stopped = at(owner(PER_SHOP, shop, this.instances), this.instances);
    List<Instance> survivors =
        this.instances.stream().filter(instance -> instance != stopped).toList();
    stopped.stop();
    awaitEveryValueAnsweredBy(survivors);
    assertLookupsOfTables(survivors);
    assertLookupsOfWindows(survivors);
    assertThat(owner(PER_SHOP, shop, survivors)).isNotEqualTo(stopped.address());
  }

  private void publishSales() {
    try (Producer<String, String> producer =
        new KafkaProducer<>(
            KafkaTestUtils.producerProps(this.cluster.bootstrapServers()),
            new StringSerializer(),
            new StringSerializer())) {
      for (Sale sale : SALES.all()) {
        producer.send(
            new ProducerRecord<>(TOPIC, sale.shop(), this.mapper.writeValueAsString(sale)));
      }
    }
  }

  /** Waits until every instance runs and its scans answer every expected value. */
  private void awaitEveryValueAnsweredBy(List<Instance> live) {
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () -> {
              for (Instance instance : live) {
                assertThat(instance.state())
                    .as(instance.name())
                    .isEqualTo(KafkaStreams.State.RUNNING);
              }
              for (Instance instance : live) {
                assertSameEntries(
                    instance.name() + " " + PER_SHOP,
                    longs(scan(instance, "/views/" + PER_SHOP + "/keys?", SLICE)),
                    SALES.perShop());
                assertSameEntries(
                    instance.name() + " " + PER_CUSTOMER,
                    longs(scan(instance, "/views/" + PER_CUSTOMER + "/keys?", SLICE)),
                    SALES.perCustomer());
                assertSameEntries(
                    instance.name() + " " + PER_MINUTE,
                    windows(
                        scan(
                            instance,
                            windowsScanPath(HOUR.minusSeconds(3600), HOUR.plusSeconds(3600)),
                            SLICE)),
                    SALES.perMinute());
              }
            });
  }

  private void assertLookupsOfTables(List<Instance> live) {
    for (String view : List.of(PER_SHOP, PER_CUSTOMER)) {
      Map<String, Long> expected = view.equals(PER_SHOP) ? SALES.perShop() : SALES.perCustomer();
      List<String> sample = spread(expected.keySet(), 200);
      assertThat(partitionsOf(view, sample)).as(view + " sample partitions").hasSize(PARTITIONS);
      for (String key : sample) {
        String owner = owner(view, key, live);
        for (Instance instance : live) {
          HttpProbe.Answer answer = instance.http().get("/views/" + view + "/keys/" + encode(key));
          assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
          assertThat(answer.json().path("key").asString()).as(answer.describe()).isEqualTo(key);
          assertThat(answer.json().path("value").asLong())
              .as(answer.describe())
              .isEqualTo(expected.get(key));
          assertThat(answer.header(SERVED_BY)).as(answer.describe()).isEqualTo(owner);
        }
      }
    }
  }

  private void assertLookupsOfWindows(List<Instance> live) {
    Instant from = HOUR.minus(Duration.ofHours(1));
    Instant to = HOUR.plus(Duration.ofHours(1));
    List<String> sample = spread(SALES.perShop().keySet(), 200);
    for (String key : sample) {
      List<String> expected =
          SALES.perMinute().entrySet().stream()
              .filter(entry -> entry.getKey().key().equals(key))
              .map(entry -> window(entry.getKey().start(), entry.getValue()))
              .toList();
      assertThat(expected).isNotEmpty();
      String owner = owner(PER_MINUTE, key, live);
      for (Instance instance : live) {
        HttpProbe.Answer answer =
            instance
                .http()
                .get(
                    "/views/"
                        + PER_MINUTE
                        + "/keys/"
                        + encode(key)
                        + "/windows?from="
                        + from
                        + "&to="
                        + to);
        assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
        assertThat(answer.json().path("key").asString()).as(answer.describe()).isEqualTo(key);
        List<String> windows = new ArrayList<>();
        for (JsonNode window : answer.json().path("windows")) {
          Instant start = Instant.parse(window.path("start").asString());
          assertThat(window.path("end").asString()).isEqualTo(start.plus(WINDOW).toString());
          windows.add(window(start, window.path("value").asLong()));
        }
        assertThat(windows).as(answer.describe()).isEqualTo(expected);
        assertThat(answer.header(SERVED_BY)).as(answer.describe()).isEqualTo(owner);
      }
    }
  }

  private void assertTableScan(Instance instance, String view, Map<String, Long> expected) {
    assertTableItems(instance, view, scan(instance, "/views/" + view + "/keys?", PAGE), expected);
  }

  private void assertTableItems(
      Instance instance, String view, List<JsonNode> items, Map<String, Long> expected) {
    List<String> keys = items.stream().map(item -> item.path("key").asString()).toList();
    String what = instance.name() + " " + view;
    assertThat(duplicates(keys)).as(what + ": keys answered more than once").isEmpty();
    assertSameEntries(what, longs(items), expected);
    Comparator<String> scanOrder =
        Comparator.<String>comparingInt(key -> partition(view, key)).thenComparing(key -> key);
    assertThat(outOfOrder(keys, scanOrder)).as(what + ": keys out of order").isEmpty();
  }

  private void assertWindowScan(Instance instance, Instant from, Instant to) {
    assertWindowItems(instance, from, to, scan(instance, windowsScanPath(from, to), PAGE));
  }

  private void assertWindowItems(
      Instance instance, Instant from, Instant to, List<JsonNode> items) {
    List<Window> windows = new ArrayList<>();
    for (JsonNode item : items) {
      Window window =
          new Window(item.path("key").asString(), Instant.parse(item.path("start").asString()));
      assertThat(item.path("end").asString()).isEqualTo(window.start().plus(WINDOW).toString());
      windows.add(window);
    }
    String what = instance.name() + " " + PER_MINUTE + " [" + from + ", " + to + "]";
    assertThat(duplicates(windows)).as(what + ": windows answered more than once").isEmpty();
    assertSameEntries(what, windows(items), SALES.perMinute(from, to));
    Comparator<Window> scanOrder =
        Comparator.<Window>comparingInt(window -> partition(PER_MINUTE, window.key()))
            .thenComparing(Window::key)
            .thenComparing(Window::start);
    assertThat(outOfOrder(windows, scanOrder)).as(what + ": windows out of order").isEmpty();
  }

  private void assertBatch(
      Instance instance, String view, List<String> keys, Map<String, Long> expected) {
    HttpProbe.Answer answer =
        instance.http().post("/views/" + view + "/batch", Map.of("keys", keys));
    String what = instance.name() + " batch of " + view;
    assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
    JsonNode items = answer.json().path("items");
    assertThat(items.size()).as(what).isEqualTo(keys.size());
    List<String> differences = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      JsonNode item = items.get(i);
      String key = keys.get(i);
      Long value = expected.get(key);
      JsonNode answered = item.path("value");
      boolean right =
          item.path("key").asString().equals(key)
              && item.path("found").isBoolean()
              && item.path("found").asBoolean() == (value != null)
              && (value != null
                  ? answered.isNumber() && answered.asLong() == value
                  : answered.isNull() || answered.isMissingNode());
      if (!right) {
        differences.add("#" + i + " asked " + key + " (" + value + "), answered " + item);
      }
    }
    assertThat(differences.subList(0, Math.min(20, differences.size())))
        .as("%s: %d items wrong", what, differences.size())
        .isEmpty();
  }

  /** Every item of a scan from {@code instance}, following cursors until there are none. */
  private List<JsonNode> scan(Instance instance, String path, int limit) {
    String first = path + (path.endsWith("?") ? "" : "&") + "limit=" + limit;
    List<JsonNode> items = new ArrayList<>();
    String cursor = null;
    for (int page = 0; page < 1000; page++) {
      HttpProbe.Answer answer =
          instance.http().get(cursor == null ? first : first + "&cursor=" + encode(cursor));
      assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
      JsonNode pageItems = answer.json().path("items");
      assertThat(pageItems.isArray()).as(answer.describe()).isTrue();
      assertThat(pageItems.size()).as(answer.describe()).isLessThanOrEqualTo(limit);
      pageItems.forEach(items::add);
      JsonNode next = answer.json().path("nextCursor");
      assertThat(next.isNull() || next.isString()).as(answer.describe()).isTrue();
      if (next.isNull()) {
        return items;
      }
      cursor = next.asString();
    }
    throw new AssertionError("A scan of " + path + " did not end after 1000 pages");
  }

  /** The items of a whole streamed scan, which must end with a line without a cursor. */
  private List<JsonNode> streamed(Instance instance, String path) {
    HttpProbe.Answer answer = instance.http().get(path, "Accept", NDJSON);
    assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
    assertThat(answer.header("Content-Type")).startsWith(NDJSON);
    String[] lines = answer.body().split("\n");
    assertThat(this.mapper.readTree(lines[lines.length - 1]))
        .as(answer.describe())
        .isEqualTo(this.mapper.readTree("{\"nextCursor\":null}"));
    List<JsonNode> items = new ArrayList<>(lines.length - 1);
    for (int line = 0; line < lines.length - 1; line++) {
      items.add(this.mapper.readTree(lines[line]));
    }
    return items;
  }

  /**
   * The partitions of {@code items} that another instance than {@code instance} owns, each of which
   * holds more items than one slice, so that reading it slice by slice would ask more than once.
   */
  private Set<Integer> partitionsOwnedByOthers(
      Instance instance, String view, List<JsonNode> items) {
    Map<Integer, Long> perPartition =
        items.stream()
            .collect(
                Collectors.groupingBy(
                    item -> partition(view, item.path("key").asString()), Collectors.counting()));
    assertThat(perPartition.values())
        .as("%s: items per partition, against slices of %d", view, SLICE)
        .allMatch(count -> count > SLICE);
    Set<Integer> others = new TreeSet<>();
    for (JsonNode item : items) {
      KeyQueryMetadata owner = instance.locate(view, item.path("key").asString());
      if (!address(owner.activeHost()).equals(instance.address())) {
        others.add(owner.partition());
      }
    }
    assertThat(others).as("%s: partitions %s owns", view, instance.name()).isNotEmpty();
    return others;
  }

  /** How many requests for slices of {@code kind} the instances but {@code instance} answered. */
  private long sliceRequestsServedByOthers(Instance instance, String kind) {
    return this.instances.stream()
        .filter(other -> other != instance)
        .mapToLong(other -> other.requestsTo("/views/{view}/partitions/{partition}/" + kind))
        .sum();
  }

  private void awaitSliceRequestsServedByOthers(
      Instance instance, String kind, long before, Set<Integer> partitions) {
    await(instance.name() + " asked the others once for each of their partitions " + partitions)
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(
            () ->
                assertThat(sliceRequestsServedByOthers(instance, kind) - before)
                    .isEqualTo(partitions.size()));
  }

  private static String windowsScanPath(Instant from, Instant to) {
    return "/views/" + PER_MINUTE + "/windows?from=" + from + "&to=" + to;
  }

  private static Map<String, Long> longs(List<JsonNode> items) {
    Map<String, Long> values = new TreeMap<>();
    items.forEach(item -> values.put(item.path("key").asString(), item.path("value").asLong()));
    return values;
  }

  private static Map<Window, Long> windows(List<JsonNode> items) {
    Map<Window, Long> values = new TreeMap<>();
    for (JsonNode item : items) {
      values.put(
          new Window(item.path("key").asString(), Instant.parse(item.path("start").asString())),
          item.path("value").asLong());
    }
    return values;
  }

  private static String window(Instant start, long value) {
    return "[" + start + ", " + start.plus(WINDOW) + ")=" + value;
  }

  /**
   * The owner of {@code key} by Kafka Streams metadata, which every live instance must agree on.
   */
  private static String owner(String view, String key, List<Instance> live) {
    Set<String> owners =
        live.stream()
            .map(instance -> address(instance.locate(view, key).activeHost()))
            .collect(Collectors.toSet());
    assertThat(owners).as("owners of %s in %s", key, view).hasSize(1);
    return owners.iterator().next();
  }

  private int partition(String view, String key) {
    return this.instances.stream()
        .filter(Instance::running)
        .findFirst()
        .orElseThrow()
        .locate(view, key)
        .partition();
  }

  private Set<Integer> partitionsOf(String view, Collection<String> keys) {
    return keys.stream().map(key -> partition(view, key)).collect(Collectors.toSet());
  }

  private static Instance at(String address, List<Instance> live) {
    return live.stream()
        .filter(instance -> instance.address().equals(address))
        .findFirst()
        .orElseThrow(() -> new AssertionError("No live instance is " + address));
  }

  private static String address(HostInfo host) {
    return host.host() + ":" + host.port();
  }

  private static List<String> spread(Collection<String> keys, int count) {
    List<String> all = new ArrayList<>(keys);
    int step = Math.max(1, all.size() / count);
    return IntStream.range(0, all.size())
        .filter(i -> i % step == 0)
        .mapToObj(all::get)
        .limit(count)
        .toList();
  }

  private static List<String> everyOther(Collection<String> keys) {
    List<String> all = new ArrayList<>(keys);
    return IntStream.range(0, all.size()).filter(i -> i % 2 == 0).mapToObj(all::get).toList();
  }

  private static Map<String, Long> between(Map<String, Long> values, String from, String to) {
    return values.entrySet().stream()
        .filter(entry -> entry.getKey().compareTo(from) >= 0 && entry.getKey().compareTo(to) <= 0)
        .collect(
            Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
  }

  private static <T> List<T> duplicates(List<T> items) {
    return items.stream()
        .collect(
            Collectors.groupingBy(Function.identity(), LinkedHashMap::new, Collectors.counting()))
        .entrySet()
        .stream()
        .filter(entry -> entry.getValue() > 1)
        .map(Map.Entry::getKey)
        .limit(20)
        .toList();
  }

  private static <T> List<String> outOfOrder(List<T> items, Comparator<T> order) {
    return IntStream.range(1, items.size())
        .filter(i -> order.compare(items.get(i - 1), items.get(i)) >= 0)
        .mapToObj(i -> "#" + i + ": " + items.get(i - 1) + " before " + items.get(i))
        .limit(20)
        .toList();
  }

  /** Fails with a short list of the differences, not the two whole maps. */
  private static <K> void assertSameEntries(
      String what, Map<K, Long> actual, Map<K, Long> expected) {
    List<String> differences = new ArrayList<>();
    expected.forEach(
        (key, value) -> {
          if (!Objects.equals(actual.get(key), value)) {
            differences.add(key + ": expected " + value + " but was " + actual.get(key));
          }
        });
    actual.keySet().stream()
        .filter(Predicate.not(expected::containsKey))
        .forEach(key -> differences.add(key + ": not expected"));
    assertThat(differences.subList(0, Math.min(20, differences.size())))
        .as("%s: %d of %d entries differ", what, differences.size(), expected.size())
        .isEmpty();
  }

  /**
   * One instance of the application, its context and an HTTP client for its port; settings are
   * command-line arguments so that system properties left by other tests in this JVM (such as the
   * embedded broker's address) cannot override them.
   */
  private record Instance(String name, ConfigurableApplicationContext context, HttpProbe http) {

    static Instance start(int n, String brokers) {
      String name = "instance-" + n;
      ConfigurableApplicationContext context =
          new SpringApplicationBuilder(ClusterApp.class)
              .run(
                  "--spring.main.banner-mode=off",
                  "--server.port=0",
                  "--server.servlet.context-path=" + CONTEXT_PATH,
                  "--spring.kafka.bootstrap-servers=" + brokers,
                  "--spring.kafka.streams.application-id=cluster-it",
                  "--spring.kafka.streams.state-dir=" + stateDirs.resolve(name),
                  "--spring.kafka.streams.replication-factor=3",
                  "--spring.kafka.streams.properties.commit.interval.ms=100",
                  "--spring.kafka.streams.properties.group.instance.id=" + name,
                  "--spring.kafka.streams.properties.session.timeout.ms=10000",
                  "--matview.advertised-host=localhost",
                  "--matview.web.max-page-size=" + SLICE,
                  "--matview.rocksdb.total-memory=32MB");
      int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
      return new Instance(name, context, HttpProbe.of("http://localhost:" + port + CONTEXT_PATH));
    }

    String address() {
      return this.http.address();
    }

    boolean running() {
      return this.context.isActive();
    }

    KafkaStreams.State state() {
      KafkaStreams streams = streams();
      return streams != null ? streams.state() : KafkaStreams.State.CREATED;
    }

    /** How many requests this instance answered at the handler of {@code uri}. */
    long requestsTo(String uri) {
      return this.context
          .getBean(MeterRegistry.class)
          .find("http.server.requests")
          .tag("uri", uri)
          .timers()
          .stream()
          .mapToLong(Timer::count)
          .sum();
    }

    KeyQueryMetadata locate(String view, String key) {
      return streams().queryMetadataForKey(view, key, new StringSerializer());
    }

    void stop() {
      this.context.close();
    }

    private KafkaStreams streams() {
      return this.context.getBean(StreamsBuilderFactoryBean.class).getKafkaStreams();
    }
  }

  /** One window of one shop. */
  private record Window(String key, Instant start) implements Comparable<Window> {

    @Override
    public int compareTo(Window other) {
      return Comparator.comparing(Window::key).thenComparing(Window::start).compare(this, other);
    }
  }

  record Sale(String shop, String customer, long quantity, Instant at) {}

  /**
   * Deterministic sales and what each view must answer for them.
   *
   * @param all the sales, in publishing order
   * @param perShop the count per shop (the record key)
   * @param perCustomer the count per customer
   * @param perMinute the count per shop and one-minute window
   */
  private record Sales(
      List<Sale> all,
      Map<String, Long> perShop,
      Map<String, Long> perCustomer,
      Map<Window, Long> perMinute) {

    static Sales generate(int count, int shops, int customers, Instant first, Duration spread) {
      Random random = new Random(42);
      List<Sale> all = new ArrayList<>();
      Map<String, Long> perShop = new TreeMap<>();
      Map<String, Long> perCustomer = new TreeMap<>();
      Map<Window, Long> perMinute = new TreeMap<>();
      for (int i = 0; i < count; i++) {
        Sale sale =
            new Sale(
                "shop-" + (1 + random.nextInt(shops)),
                "customer-" + (1 + random.nextInt(customers)),
                1 + random.nextInt(5),
                first.plusMillis(random.nextInt((int) spread.toMillis())));
        all.add(sale);
        perShop.merge(sale.shop(), 1L, Long::sum);
        perCustomer.merge(sale.customer(), 1L, Long::sum);
        Instant start = Instant.ofEpochMilli(sale.at().toEpochMilli() / 60_000 * 60_000);
        perMinute.merge(new Window(sale.shop(), start), 1L, Long::sum);
      }
      return new Sales(all, perShop, perCustomer, perMinute);
    }

    Map<Window, Long> perMinute(Instant from, Instant to) {
      Map<Window, Long> within = new TreeMap<>(this.perMinute);
      within
          .keySet()
          .removeIf(window -> window.start().isBefore(from) || window.start().isAfter(to));
      return within;
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class ClusterApp {

    @MaterializedView(PER_SHOP)
    ViewDefinition<String, Sale, Long> salesPerShop() {
      return Views.from(TOPIC, Sale.class).count();
    }

    @MaterializedView(PER_CUSTOMER)
    ViewDefinition<String, Sale, Long> salesPerCustomer() {
      return Views.from(TOPIC, Sale.class).groupBy(String.class, Sale::customer).count();
    }

    @MaterializedView(PER_MINUTE)
    ViewDefinition<String, Sale, Long> salesPerShopPerMinute() {
      return Views.from(TOPIC, Sale.class)
          .eventTime(Sale::at)
          .windowedBy(
              ViewWindow.tumbling(WINDOW)
                  .withGrace(Duration.ofHours(1))
                  .withRetention(Duration.ofHours(2)))
          .count();
    }

    @Bean
    AsyncDispatchCounter asyncDispatchCounter() {
      return new AsyncDispatchCounter();
    }

    @Bean
    FilterRegistrationBean<AsyncDispatchCounter> asyncDispatchCounterRegistration(
        AsyncDispatchCounter counter) {
      return counter.registration();
    }

    @Bean
    StreamsBuilderFactoryBeanConfigurer leaveGroupOnClose() {
      return factoryBean -> factoryBean.setLeaveGroupOnClose(true);
    }
  }
}
