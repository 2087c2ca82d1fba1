package dev.matview.cluster;

import static dev.matview.processes.http.HttpProbe.encode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.peer.PeerRequests;
import dev.matview.peer.PeerTrust;
import dev.matview.peer.SecretAgreement;
import dev.matview.processes.http.HttpProbe;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Two instances that agreed on their secret through Kafka, over real HTTP: cursors and forwarded
 * requests carry signatures callers cannot make, outside callers get no peer privileges and no
 * internal host names, and forwarded requests arrive with every character of their parameters.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PeerTrustIntegrationTests {

  private static final String APPLICATION_ID = "peers-it";

  private static final String TOPIC = "visits";

  private static final String VISITS = "visits";

  private static final String PER_MINUTE = "visits-per-minute";

  private static final int PARTITIONS = 4;

  private static final Instant AT = Instant.now().truncatedTo(ChronoUnit.MINUTES).minusSeconds(300);

  private static final List<String> RESERVED =
      List.of("a/b", "50%", "c++", "x;y", "two words", "\u00fcn\u00ef\u6771\u4eac", "q?r#s&t=u");

  @TempDir static Path stateDirs;

  private final JsonMapper mapper = JsonMapper.builder().build();

  private final List<String> keys = new ArrayList<>();

  private final List<Instance> instances = new ArrayList<>();

  private EmbeddedKafkaKraftBroker broker;

  @BeforeAll
  void startTwoInstancesThatAgreeOnTheirSecret() {
    this.broker = new EmbeddedKafkaKraftBroker(1, PARTITIONS, TOPIC);
    this.broker.afterPropertiesSet();
    for (int n = 1; n <= 2; n++) {
      this.instances.add(Instance.start(n, this.broker));
    }
    for (int i = 0; i < 40; i++) {
      this.keys.add("page-" + i);
    }
    this.keys.addAll(RESERVED);
    try (Producer<String, String> producer =
        new KafkaProducer<>(
            KafkaTestUtils.producerProps(this.broker),
            new StringSerializer(),
            new StringSerializer())) {
      for (String key : this.keys) {
        for (int visit = 0; visit < 2; visit++) {
          producer.send(
              new ProducerRecord<>(
                  TOPIC,
                  key,
                  this.mapper.writeValueAsString(new Visit(key, AT.plusSeconds(visit)))));
        }
      }
    }
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () -> {
              for (Instance instance : this.instances) {
                assertThat(scan(instance, instance, 1000)).hasSize(this.keys.size());
              }
            });
  }

  @AfterAll
  void stopInstancesAndBroker() {
    this.instances.forEach(Instance::stop);
    if (this.broker != null) {
      this.broker.destroy();
    }
  }

  @Test
  void theInstancesAgreedOnOneSecretThroughACompactedTopicNamedAfterTheApplication()
      throws Exception {
    byte[] probe = "probe".getBytes(StandardCharsets.UTF_8);
    assertThat(trust(0).isEstablished()).isTrue();
    assertThat(trust(0).key("probe").mac(probe)).isEqualTo(trust(1).key("probe").mac(probe));
    try (Admin admin =
        Admin.create(Map.of("bootstrap.servers", this.broker.getBrokersAsString()))) {
      assertThat(
              admin
                  .describeTopics(List.of(SecretAgreement.topic(APPLICATION_ID)))
                  .allTopicNames()
                  .get(30, TimeUnit.SECONDS)
                  .get(APPLICATION_ID + "-matview-peers")
                  .partitions())
          .hasSize(1);
    }
  }

  @Test
  void followsACursorFromOneInstanceOnTheOther() {
    List<String> scanned = scan(this.instances.get(0), this.instances.get(1), 7);
    assertThat(scanned).hasSize(this.keys.size()).doesNotHaveDuplicates();
    assertThat(new HashSet<>(scanned)).isEqualTo(new HashSet<>(this.keys));
  }

  @Test
  void refusesForgedCursorsWithAHugeKeyLengthQuicklyWithoutAllocatingTheirLength() {
    ByteBuffer body = ByteBuffer.allocate(42);
    body.put((byte) 1).putInt(0).putInt(PARTITIONS).putInt(("keys:null:null").hashCode());
    body.putLong(0).putLong(0).put((byte) 1).putInt(0x7FFFFFF0).putLong(0);
    String forged = derivablySigned(body.array());
    assertThat(forged).hasSizeLessThan(80);
    long allocated = allocatedBytes();
    long started = System.nanoTime();
    List<CompletableFuture<HttpProbe.Answer>> answers = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      Instance instance = this.instances.get(i % 2);
      answers.add(
          CompletableFuture.supplyAsync(
              () -> instance.http().get("/views/" + VISITS + "/keys?cursor=" + forged)));
    }
    for (CompletableFuture<HttpProbe.Answer> future : answers) {
      HttpProbe.Answer answer = future.join();
      assertThat(answer.status()).as(answer.describe()).isEqualTo(400);
      assertThat(answer.json().path("parameter").asString()).isEqualTo("cursor");
    }
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    assertThat(allocatedBytes() - allocated).isLessThan(512L * 1024 * 1024);
  }

  @Test
  void refusesACursorSignedWithTheKeyDerivedFromTheApplicationIdAndViewName() {
    byte[] key = "page-1".getBytes(StandardCharsets.UTF_8);
    ByteBuffer body = ByteBuffer.allocate(42 + key.length);
    body.put((byte) 1).putInt(0).putInt(PARTITIONS).putInt(("keys:null:null").hashCode());
    body.putLong(0).putLong(0).put((byte) 1).putInt(key.length).put(key).putLong(0);
    String cursor = derivablySigned(body.array());
    for (Instance instance : this.instances) {
      HttpProbe.Answer answer = instance.http().get("/views/" + VISITS + "/keys?cursor=" + cursor);
      assertThat(answer.status()).as(answer.describe()).isEqualTo(400);
      assertThat(answer.json().path("detail").asString()).contains("altered");
    }
  }

  @Test
  void servesAnOutsideCallerThatSendsTheForwardedMarkerLikeAnyCaller() {
    for (String key : List.of("page-1", "page-2", "page-3", "page-4")) {
      String path = "/views/" + VISITS + "/keys/" + encode(key);
      String owner = this.instances.get(0).http().get(path).header("Matview-Served-By");
      Instance other = otherThan(owner);
      HttpProbe.Answer answer = other.http().get(path, PeerRequests.FORWARDED_HEADER, "1");
      assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
      assertThat(answer.header("Matview-Served-By")).isEqualTo(owner);
      assertThat(answer.json().path("value").asLong()).isEqualTo(2);
    }
  }

  @Test
  void refusesARequestWhoseSignatureDoesNotCheckBeforeAnyWorkWithoutNamingAnInstance() {
    PeerRequests requests = requests(0);
    String path = "/views/" + VISITS + "/keys/page-1";
    String signature = requests.sign("GET", path, null, PeerHeaders.FORWARDED);
    String mac = signature.substring(signature.lastIndexOf('.') + 1);
    String prefix = signature.substring(0, signature.lastIndexOf('.') + 1);
    List<String> forged =
        List.of(
            "v1.1.none.AAAA",
            prefix + mac.substring(0, 2),
            prefix + mac.substring(0, mac.length() - 1),
            prefix + (mac.charAt(0) == 'A' ? 'B' : 'A') + mac.substring(1),
            requests.sign("GET", path + "x", null, PeerHeaders.FORWARDED));
    for (Instance instance : this.instances) {
      PeerRequests own = instance.context().getBean(PeerRequests.class);
      long mismatchedBefore = own.checks(PeerRequests.Outcome.MAC_MISMATCH);
      long malformedBefore = own.checks(PeerRequests.Outcome.MALFORMED);
      for (String signed : forged) {
        HttpProbe.Answer refused = instance.http().get(path, PeerHeaders.signed(signed));
        assertThat(refused.status()).as(refused.describe()).isEqualTo(403);
        assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
        assertThat(refused.json().path("type").asString()).endsWith("/invalid-peer-signature");
        assertThat(refused.header("Matview-Served-By")).isEmpty();
        assertNamesNoInstance(refused);
      }
      HttpProbe.Answer relayMarker =
          instance
              .http()
              .get(
                  path,
                  PeerRequests.FORWARDED_HEADER,
                  PeerRequests.RELAYED,
                  PeerRequests.SIGNATURE_HEADER,
                  signature);
      assertThat(relayMarker.status()).as("a forward's signature on a relay").isEqualTo(403);
      assertThat(own.checks(PeerRequests.Outcome.MAC_MISMATCH) - mismatchedBefore)
          .as("forgeries that reached the MAC's comparison: a flipped byte, another path, a relay")
          .isEqualTo(3);
      assertThat(own.checks(PeerRequests.Outcome.MALFORMED) - malformedBefore)
          .as("forgeries refused before it: an older format, MACs cut to 1 and 31 bytes")
          .isEqualTo(3);
    }
  }

  @Test
  void checksTheSignatureOfAPathWhoseDotSegmentsTheServletContainerTakesOutOfTheBasePath() {
    PeerRequests requests = requests(0);
    for (String path : List.of("/views/../keys", "/views/" + VISITS + "/../x/keys/page-1")) {
      String forged = requests.sign("GET", path + "x", null, PeerHeaders.FORWARDED);
      for (Instance instance : this.instances) {
        HttpProbe.Answer refused = instance.http().get(path, PeerHeaders.signed(forged));
        assertThat(refused.status()).as(refused.describe()).isEqualTo(403);
        assertThat(refused.json().path("type").asString()).endsWith("/invalid-peer-signature");
      }
    }
  }

  @Test
  void refusesOutsideCallersOnThePartitionSliceEndpointsWithoutNamingAnInstance() {
    for (Instance instance : this.instances) {
      for (int partition = 0; partition < PARTITIONS; partition++) {
        String path = "/views/" + VISITS + "/partitions/" + partition + "/keys?limit=5";
        for (HttpProbe.Answer answer :
            List.of(
                instance.http().get(path),
                instance.http().get(path, PeerRequests.FORWARDED_HEADER, "1"),
                instance
                    .http()
                    .get(
                        path,
                        PeerRequests.FORWARDED_HEADER,
                        "1",
                        PeerRequests.SIGNATURE_HEADER,
                        "v1.1.none.AAAA"),
                instance
                    .http()
                    .get(
                        "/views/"
                            + PER_MINUTE
                            + "/partitions/"
                            + partition
                            + "/windows?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z"))) {
          assertThat(answer.status()).as(answer.describe()).isEqualTo(403);
          assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
          assertNamesNoInstance(answer);
        }
      }
    }
  }

  @Test
  void servesAPeersSignedSliceRequestButNotOneAlteredOrOutOfDate() {
    PeerRequests requests = requests(0);
    PeerRequests late =
        new PeerRequests(
            trust(0),
            Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-2)),
            Duration.ofSeconds(30));
    int served = 0;
    for (Instance instance : this.instances) {
      for (int partition = 0; partition < PARTITIONS; partition++) {
        String path = "/views/" + VISITS + "/partitions/" + partition + "/keys?limit=5";
        HttpProbe.Answer answer = instance.http().get(path, PeerHeaders.signedGet(requests, path));
        if (answer.status() == 200) {
          served++;
          assertThat(answer.json().path("items").size()).isEqualTo(5);
          assertThat(answer.json().path("last").isString()).isTrue();
        } else {
          assertThat(answer.status()).as(answer.describe()).isEqualTo(503);
          assertNamesNoInstance(answer);
        }
        String altered = path.replace("limit=5", "limit=6");
        HttpProbe.Answer refused =
            instance
                .http()
                .get(
                    altered,
                    PeerRequests.FORWARDED_HEADER,
                    "1",
                    PeerRequests.SIGNATURE_HEADER,
                    requests.sign("GET", path, null, PeerHeaders.FORWARDED));
        assertThat(refused.status()).as(refused.describe()).isEqualTo(403);
        HttpProbe.Answer stale = instance.http().get(path, PeerHeaders.signedGet(late, path));
        assertThat(stale.status()).as(stale.describe()).isEqualTo(403);
      }
    }
    assertThat(served).as("partitions served by their owner").isEqualTo(PARTITIONS);
  }

  @Test
  void streamsAPeersSignedSlicesAndRefusesHostileStreamRequestsNamingTheParameter() {
    PeerRequests requests = requests(0);
    int streamed = 0;
    for (Instance instance : this.instances) {
      for (int partition = 0; partition < PARTITIONS; partition++) {
        String path = "/views/" + VISITS + "/partitions/" + partition + "/keys?limit=5&form=stream";
        HttpProbe.Answer answer = instance.http().get(path, PeerHeaders.signedGet(requests, path));
        if (answer.status() == 200) {
          streamed++;
          assertThat(answer.header("Content-Type")).startsWith("application/vnd.matview.slices");
          assertThat(answer.body()).as(answer.describe()).matches("(?s)[1-9][0-9]*\n\\{.*\n");
        } else {
          assertThat(answer.status()).as(answer.describe()).isEqualTo(503);
          assertNamesNoInstance(answer);
        }
      }
      Map<String, String> hostile =
          Map.of(
              "/views/" + VISITS + "/partitions/0/keys?limit=0&form=stream", "limit",
              "/views/" + VISITS + "/partitions/0/keys?limit=5&form=STREAM", "form",
              "/views/" + VISITS + "/partitions/0/keys?form=stream&after=" + "A".repeat(3_000),
                  "after",
              "/views/" + VISITS + "/partitions/99/keys?form=stream", "partition");
      for (Map.Entry<String, String> request : hostile.entrySet()) {
        String hostilePath = request.getKey();
        HttpProbe.Answer refused =
            instance.http().get(hostilePath, PeerHeaders.signedGet(requests, hostilePath));
        assertThat(refused.status()).as(refused.describe()).isEqualTo(400);
        assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
        assertThat(refused.json().path("parameter").asString())
            .as(refused.describe())
            .isEqualTo(request.getValue());
      }
    }
    assertThat(streamed).as("partitions streamed by their owner").isEqualTo(PARTITIONS);
  }

  @Test
  void refusesAForwardedLookupOfAnotherInstancesKeyWithoutNamingIt() {
    String path = "/views/" + VISITS + "/keys/page-1";
    String owner = this.instances.get(0).http().get(path).header("Matview-Served-By");
    Instance other = otherThan(owner);
    HttpProbe.Answer refused = other.http().get(path, PeerHeaders.signedGet(requests(0), path));
    assertThat(refused.status()).as(refused.describe()).isEqualTo(503);
    assertThat(refused.header("Retry-After")).matches("[1-9][0-9]*");
    assertNamesNoInstance(refused);
  }

  @Test
  void honoursTheMarkerOnABatchOnlyWithTheBodyThatWasSigned() {
    String path = "/views/" + VISITS + "/batch";
    String owner =
        this.instances
            .get(0)
            .http()
            .get("/views/" + VISITS + "/keys/page-1")
            .header("Matview-Served-By");
    Instance other = otherThan(owner);
    String json = "{\"keys\":[\"page-1\"]}";
    String signature =
        requests(0)
            .sign("POST", path, json.getBytes(StandardCharsets.UTF_8), PeerHeaders.FORWARDED);
    HttpProbe.Answer forwarded = other.http().post(path, json, PeerHeaders.signed(signature));
    assertThat(forwarded.status()).as(forwarded.describe()).isEqualTo(503);
    assertNamesNoInstance(forwarded);
    HttpProbe.Answer altered =
        other.http().post(path, "{\"keys\":[\"page-1\" ]}", PeerHeaders.signed(signature));
    assertThat(altered.status()).as(altered.describe()).isEqualTo(403);
    assertThat(altered.json().path("type").asString()).endsWith("/invalid-peer-signature");
    assertNamesNoInstance(altered);
  }

  /**
   * A signed body of keys forwarded together, plain or each with its bound, that names a field
   * twice anywhere is refused with 400 naming the body: the signature says a peer sent it, not
   * which of the two values it meant. The same bodies without the second field are answered.
   */
  @Test
  void refusesASignedForwardedBodyThatNamesAFieldTwiceNamingTheBody() {
    String path = "/views/" + VISITS + "/forwarded-keys";
    List<String> twice =
        List.of(
            "{\"keys\":[\"page-1\"],\"keys\":[\"page-2\"]}",
            "{\"keys\":[\"page-1\"],\"extra\":{\"a\":1,\"a\":2}}",
            "{\"keys\":[\"page-1\"],\"bounds\":[{\"after\":[],\"after\":[]}]}",
            "{\"keys\":[\"page-1\"],\"bounds\":[{\"after\":[]}],\"bounds\":[]}");
    for (String json : twice) {
      HttpProbe.Answer refused = signedPost(path, json);
      assertThat(refused.status()).as(refused.describe()).isEqualTo(400);
      assertThat(refused.json().path("parameter").asString())
          .as(refused.describe())
          .isEqualTo("body");
      assertThat(refused.json().path("detail").asString()).contains("Duplicate");
    }
    for (String once :
        List.of("{\"keys\":[\"page-1\"]}", "{\"keys\":[\"page-1\"],\"bounds\":[{\"after\":[]}]}")) {
      HttpProbe.Answer answered = signedPost(path, once);
      assertThat(answered.status()).as(answered.describe()).isEqualTo(200);
      assertThat(answered.json().isArray()).as(answered.describe()).isTrue();
    }
  }

  private HttpProbe.Answer signedPost(String path, String json) {
    return this.instances
        .get(0)
        .http()
        .post(
            path,
            json,
            PeerHeaders.signedPost(requests(0), path, json.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void answersAWindowLookupAfterTheYear9999AlikeThroughEitherInstance() {
    for (String key : List.of("page-1", "page-2", "page-3", "page-4")) {
      String path =
          "/views/"
              + PER_MINUTE
              + "/keys/"
              + encode(key)
              + "/windows?from="
              + AT.minusSeconds(3600)
              + "&to="
              + encode("+10000-01-01T00:00:00Z");
      HttpProbe.Answer first = this.instances.get(0).http().get(path);
      HttpProbe.Answer second = this.instances.get(1).http().get(path);
      assertThat(first.status()).as(first.describe()).isEqualTo(200);
      assertThat(second.status()).as(second.describe()).isEqualTo(200);
      assertThat(first.json().path("windows").size()).isEqualTo(1);
      assertThat(second.json()).isEqualTo(first.json());
    }
  }

  @Test
  void answersKeysWithReservedCharactersAlikeThroughEitherInstance() {
    for (String key : RESERVED) {
      String path = "/views/" + VISITS + "/keys/" + encode(key);
      HttpProbe.Answer first = this.instances.get(0).http().get(path);
      HttpProbe.Answer second = this.instances.get(1).http().get(path);
      assertThat(second.status()).as(second.describe()).isEqualTo(first.status());
      assertThat(second.json()).as(second.describe()).isEqualTo(first.json());
      if (!key.contains("/")) {
        assertThat(first.status()).as(first.describe()).isEqualTo(200);
        assertThat(first.json().path("key").asString()).isEqualTo(key);
        assertThat(first.json().path("value").asLong()).isEqualTo(2);
      }
    }
  }

  /** The keys of a scan that alternates between {@code first} and {@code second} per page. */
  private List<String> scan(Instance first, Instance second, int limit) {
    List<String> keys = new ArrayList<>();
    String cursor = null;
    for (int page = 0; page < 1000; page++) {
      Instance instance = page % 2 == 0 ? first : second;
      HttpProbe.Answer answer =
          instance
              .http()
              .get(
                  "/views/"
                      + VISITS
                      + "/keys?limit="
                      + limit
                      + (cursor != null ? "&cursor=" + encode(cursor) : ""));
      assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
      for (JsonNode item : answer.json().path("items")) {
        keys.add(item.path("key").asString());
      }
      JsonNode next = answer.json().path("nextCursor");
      if (next.isNull()) {
        return keys;
      }
      cursor = next.asString();
    }
    throw new AssertionError("The scan did not end after 1000 pages");
  }

  private void assertNamesNoInstance(HttpProbe.Answer answer) {
    String body = answer.body();
    assertThat(body).as(answer.describe()).doesNotContain("localhost:", "127.0.0.1");
    for (Instance instance : this.instances) {
      assertThat(body).as(answer.describe()).doesNotContain(instance.address());
    }
  }

  /** {@code body} signed as cursors were before: with a key derived from public names. */
  private static String derivablySigned(byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      byte[] key =
          MessageDigest.getInstance("SHA-256")
              .digest((APPLICATION_ID + "/" + VISITS).getBytes(StandardCharsets.UTF_8));
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      byte[] signed = Arrays.copyOf(body, body.length + 12);
      System.arraycopy(mac.doFinal(body), 0, signed, body.length, 12);
      return Base64.getUrlEncoder().withoutPadding().encodeToString(signed);
    } catch (java.security.GeneralSecurityException ex) {
      throw new IllegalStateException(ex);
    }
  }

  /** The bytes all live threads of this JVM have allocated so far. */
  private static long allocatedBytes() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    return Arrays.stream(threads.getThreadAllocatedBytes(threads.getAllThreadIds()))
        .filter(bytes -> bytes > 0)
        .sum();
  }

  private Instance otherThan(String address) {
    Set<String> addresses = new HashSet<>();
    this.instances.forEach(instance -> addresses.add(instance.address()));
    assertThat(addresses).contains(address);
    return this.instances.stream()
        .filter(instance -> !instance.address().equals(address))
        .findFirst()
        .orElseThrow();
  }

  private PeerTrust trust(int index) {
    return this.instances.get(index).context().getBean(PeerTrust.class);
  }

  private PeerRequests requests(int index) {
    return this.instances.get(index).context().getBean(PeerRequests.class);
  }

  /** One instance, its context and an HTTP client for its port. */
  private record Instance(ConfigurableApplicationContext context, HttpProbe http) {

    static Instance start(int n, EmbeddedKafkaKraftBroker broker) {
      ConfigurableApplicationContext context =
          new SpringApplicationBuilder(PeerApp.class)
              .run(
                  "--spring.main.banner-mode=off",
                  "--server.port=0",
                  "--spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
                  "--spring.kafka.streams.application-id=" + APPLICATION_ID,
                  "--spring.kafka.streams.state-dir=" + stateDirs.resolve("instance-" + n),
                  "--spring.kafka.streams.properties.commit.interval.ms=100",
                  "--spring.kafka.admin.auto-create=true",
                  "--matview.advertised-host=localhost",
                  "--matview.rocksdb.total-memory=32MB");
      int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
      return new Instance(context, HttpProbe.localhost(port));
    }

    String address() {
      return this.http.address();
    }

    void stop() {
      this.context.close();
    }
  }

  record Visit(String page, Instant at) {}

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class PeerApp {

    @MaterializedView(VISITS)
    ViewDefinition<String, Visit, Long> visits() {
      return Views.from(TOPIC, Visit.class).count();
    }

    @MaterializedView(PER_MINUTE)
    ViewDefinition<String, Visit, Long> visitsPerMinute() {
      return Views.from(TOPIC, Visit.class)
          .eventTime(Visit::at)
          .windowedBy(
              ViewWindow.tumbling(Duration.ofMinutes(1))
                  .withGrace(Duration.ofHours(1))
                  .withRetention(Duration.ofHours(2)))
          .count();
    }
  }
}
