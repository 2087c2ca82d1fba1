package dev.matview.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.processes.http.HttpProbe;
import dev.matview.query.RebalancingDirectory;
import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.routing.InstanceMemory;
import dev.matview.query.routing.ReplicaDirectory;
import dev.matview.query.routing.Routing;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
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
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;

/**
 * Three instances with one standby replica of each partition, on a real broker and over real HTTP.
 * The owner of a partition stops answering (its port accepts connections and never answers, as a
 * stuck process does): a lookup that allows stale reads is answered by the standby on the asking
 * instance, or on another instance; the owner is asked once per asking instance and then skipped
 * for the down time, so that later lookups go straight to the standby, and lookups without stale
 * reads are refused at once. While the instances rebalance and a partition's new owner cannot
 * answer, a lookup that allows stale reads is answered by its previous owner, here or on another
 * instance. An instance that shuts down refuses lookups at once. A restarted instance whose Kafka
 * Streams is not running yet has its lookups routed by an instance it remembers from before.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FallbackIntegrationTests {

  private static final String TOPIC = "page-views";

  private static final String VIEW = "views-per-page";

  private static final int PARTITIONS = 6;

  private static final int PAGES = 120;

  private static final Duration FORWARDING_TIMEOUT = Duration.ofSeconds(1);

  /** Configured rather than agreed, so that an instance whose Kafka Streams never starts has it. */
  private static final String SECRET = "fallback-it-shared-secret-0123456789abcdef";

  @TempDir static Path stateDirs;

  private final List<ClusterInstance> instances = new ArrayList<>();

  private final List<Socket> stuck = new CopyOnWriteArrayList<>();

  private EmbeddedKafkaKraftBroker broker;

  private ServerSocket stuckOwner;

  @BeforeAll
  void startThreeInstancesWithStandbys() {
    this.broker = new EmbeddedKafkaKraftBroker(1, PARTITIONS, TOPIC);
    this.broker.afterPropertiesSet();
    for (int n = 1; n <= 3; n++) {
      this.instances.add(
          ClusterInstance.start(
              FallbackApp.class,
              this.broker.getBrokersAsString(),
              "fallback-it",
              stateDirs.resolve("instance-" + n),
              "--matview.standby-replicas=1",
              "--matview.forwarding.timeout=" + FORWARDING_TIMEOUT.toMillis() + "ms",
              "--matview.peers.down-time=1m",
              "--matview.peers.secret=" + SECRET));
    }
    try (Producer<String, String> producer =
        new KafkaProducer<>(
            KafkaTestUtils.producerProps(this.broker),
            new StringSerializer(),
            new StringSerializer())) {
      for (int i = 0; i < PAGES * 3; i++) {
        producer.send(new ProducerRecord<>(TOPIC, "page-" + (i % PAGES), "{\"page\":\"p\"}"));
      }
    }
    await("every instance answers every page, and every partition has a standby")
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () -> {
              for (ClusterInstance instance : this.instances) {
                for (int i = 0; i < PAGES; i += 7) {
                  assertThat(
                          instance.http().get(path("page-" + i, "")).json().path("value").asLong())
                      .isEqualTo(3);
                  assertThat(replicas(instance, "page-" + i).standbys()).hasSize(1);
                }
              }
            });
  }

  @AfterAll
  void stopEverything() throws IOException {
    if (this.stuckOwner != null) {
      this.stuckOwner.close();
    }
    for (Socket socket : this.stuck) {
      socket.close();
    }
    this.instances.stream().filter(ClusterInstance::running).forEach(ClusterInstance::close);
    if (this.broker != null) {
      this.broker.destroy();
    }
  }

  @Test
  @Order(0)
  void aRestartedInstanceWhoseKafkaStreamsIsNotRunningYetAsksTheInstancesItRemembers()
      throws IOException {
    Path remembered = stateDirs.resolve("instance-1/fallback-it/" + InstanceMemory.FILE_NAME);
    await("the first instance remembers the assignment's instances")
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(Files.exists(remembered) ? Files.readAllLines(remembered) : List.of())
                    .containsExactlyInAnyOrderElementsOf(
                        this.instances.stream()
                            .map((instance) -> "localhost:" + instance.port())
                            .toList()));
    Path restartedState = stateDirs.resolve("restarted");
    Files.createDirectories(restartedState.resolve("fallback-it"));
    Files.copy(remembered, restartedState.resolve("fallback-it/" + InstanceMemory.FILE_NAME));
    ClusterInstance restarted =
        ClusterInstance.start(
            FallbackApp.class,
            this.broker.getBrokersAsString(),
            "fallback-it",
            restartedState,
            "--spring.kafka.streams.auto-startup=false",
            "--matview.peers.secret=" + SECRET);
    try {
      for (int i = 0; i < PAGES; i += 17) {
        HttpProbe.Answer answer = restarted.http().get(path("page-" + i, ""));
        assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
        assertThat(answer.json().path("value").asLong()).isEqualTo(3);
        assertThat(answer.header("Matview-Replica")).isEqualTo("active");
        assertThat(answer.header("Matview-Served-By"))
            .isIn(this.instances.stream().map((instance) -> instance.http().address()).toList());
      }
    } finally {
      restarted.close();
    }
  }

  @Test
  @Order(1)
  void asksThePreviousOwnerWhileTheInstancesRebalanceAndTheNewOwnerCannotAnswer()
      throws IOException {
    ClusterInstance caller = this.instances.get(0);
    String remoteKey = keyWhereCallerHoldsNoReplica(caller);
    String localKey = keyOwnedBy(caller);
    HostInfo newOwner = new HostInfo("localhost", freePort());
    for (String key : List.of(remoteKey, localKey)) {
      KeyReplicas before = replicas(caller, key);
      ClusterInstance previousOwner = instanceAt(before.active());
      try (RebalancingDirectory rebalancing =
          RebalancingDirectory.moveActive(
              caller.bean(ReplicaDirectory.class),
              caller.streams(),
              new TopicPartition(TOPIC, before.partition()),
              newOwner)) {
        KeyReplicas during = replicas(caller, key);
        assertThat(during.active().host()).isEqualTo(newOwner);
        assertThat(during.standbys()).isEmpty();
        assertThat(during.previousActive()).isEqualTo(before.active());

        HttpProbe.Answer stale = caller.http().get(path(key, "?allowStale=true&maxLag=1000"));
        assertThat(stale.status()).as(stale.describe()).isEqualTo(200);
        assertThat(stale.json().path("value").asLong()).isEqualTo(3);
        assertThat(stale.header("Matview-Served-By"))
            .as("answered by the previous owner, " + (key.equals(localKey) ? "here" : "remote"))
            .isEqualTo(previousOwner.http().address());
        assertThat(Long.parseLong(stale.header("Matview-Offset-Lag"))).isBetween(0L, 1000L);

        HttpProbe.Answer exact = caller.http().get(path(key, ""));
        assertThat(exact.status()).as(exact.describe()).isEqualTo(503);
        assertThat(exact.header("Retry-After")).isNotEmpty();
        assertThat(exact.json().path("detail").asString()).doesNotContain("localhost");
      }
      assertThat(replicas(caller, key).active()).isEqualTo(before.active());
    }
  }

  @Test
  @Order(2)
  void answersFromAStandbyAtOnceWhileTheOwnerIsStuckAndAsksTheOwnerOncePerInstance()
      throws IOException {
    ClusterInstance caller = this.instances.get(0);
    String key = keyOwnedByAnother(caller);
    KeyReplicas replicas = replicas(caller, key);
    ClusterInstance owner = instanceAt(replicas.active());
    ClusterInstance standby = instanceAt(replicas.standbys().get(0));
    ClusterInstance third =
        this.instances.stream()
            .filter((instance) -> instance != owner && instance != standby)
            .findFirst()
            .orElseThrow();
    makeStuck(owner);

    List<String> batchKeys = List.of("page-0", key, "page-1", "page-2", "page-3");
    HttpProbe.Answer batch =
        third
            .http()
            .post(
                "/views/" + VIEW + "/batch?allowStale=true&maxLag=1000", Map.of("keys", batchKeys));
    assertThat(batch.status()).as(batch.describe()).isEqualTo(200);
    assertThat(batch.json().path("items").valueStream().map((item) -> item.path("key").asString()))
        .as("the owner timed out on the batch, so its key was asked alone, of its standby")
        .containsExactlyElementsOf(batchKeys);
    assertThat(batch.json().path("items").valueStream().map((item) -> item.path("value").asLong()))
        .containsOnly(3L);
    HttpProbe.Answer scan =
        third.http().get("/views/" + VIEW + "/keys?limit=1000&allowStale=true&maxLag=1000");
    assertThat(scan.status()).as(scan.describe()).isEqualTo(200);
    assertThat(scan.json().path("items").size())
        .as("every key, those of the owner marked down from its standby")
        .isEqualTo(PAGES);
    assertThat(scan.json().path("items").valueStream().map((item) -> item.path("value").asLong()))
        .containsOnly(3L);

    HttpProbe.Answer fromOther = third.http().get(path(key, "?allowStale=true&maxLag=1000"));
    assertServedByStandby(fromOther, standby);
    HttpProbe.Answer fromItself = standby.http().get(path(key, "?allowStale=true&maxLag=1000"));
    assertServedByStandby(fromItself, standby);
    assertThat(this.stuck).as("connections the stuck owner accepted").hasSize(2);

    for (ClusterInstance asking : List.of(third, standby)) {
      for (int n = 0; n < 5; n++) {
        long started = System.nanoTime();
        assertServedByStandby(
            asking.http().get(path(key, "?allowStale=true&maxLag=1000")), standby);
        assertThat(Duration.ofNanos(System.nanoTime() - started))
            .as("a lookup that skips the owner marked down")
            .isLessThan(FORWARDING_TIMEOUT);
      }
      long started = System.nanoTime();
      HttpProbe.Answer refused = asking.http().get(path(key, "?allowStale=false"));
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(FORWARDING_TIMEOUT);
      assertThat(refused.status()).as(refused.describe()).isEqualTo(503);
      assertThat(refused.header("Retry-After")).isNotEmpty();
      assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
      assertThat(refused.json().path("detail").asString())
          .contains("did not answer in time a moment ago")
          .doesNotContain("localhost");
      HttpProbe.Answer refusedBatch =
          asking.http().post("/views/" + VIEW + "/batch", Map.of("keys", List.of(key)));
      assertThat(refusedBatch.status()).as(refusedBatch.describe()).isEqualTo(503);
      assertThat(refusedBatch.json().path("detail").asString())
          .contains("did not answer in time a moment ago");
      long scanStarted = System.nanoTime();
      HttpProbe.Answer refusedScan = asking.http().get("/views/" + VIEW + "/keys?limit=1000");
      assertThat(Duration.ofNanos(System.nanoTime() - scanStarted))
          .as("a scan that skips the owner marked down")
          .isLessThan(FORWARDING_TIMEOUT);
      assertThat(refusedScan.status()).as(refusedScan.describe()).isEqualTo(503);
      assertThat(refusedScan.json().path("detail").asString())
          .contains("did not answer in time a moment ago");
    }
    assertThat(this.stuck).as("connections the stuck owner accepted").hasSize(2);
  }

  @Test
  @Order(3)
  void refusesLookupsAtOnceOnceItBeginsToShutDown() {
    ClusterInstance closing =
        this.instances.stream()
            .filter((instance) -> instance.webServer().getPort() > 0)
            .findFirst()
            .orElseThrow();
    String key = keyOwnedBy(closing);
    assertThat(closing.http().get(path(key, "")).status()).isEqualTo(200);
    Thread closer = new Thread(closing::close, "closer");
    closer.start();
    List<String> seen = new CopyOnWriteArrayList<>();
    await("a lookup refused because the instance shuts down")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(10))
        .until(
            () -> {
              long started = System.nanoTime();
              HttpProbe.Answer answer = closing.http().get(path(key, ""));
              seen.add(
                  answer.status() + " in " + (System.nanoTime() - started) / 1_000_000 + " ms");
              return answer.status() == 503
                  && answer.json().path("detail").asString().contains("shutting down")
                  && answer.header("Retry-After").equals("1");
            });
    assertThat(seen).allMatch((answer) -> answer.startsWith("200") || answer.startsWith("503"));
  }

  private void makeStuck(ClusterInstance owner) throws IOException {
    int port = owner.port();
    owner.webServer().stop();
    this.stuckOwner = new ServerSocket();
    this.stuckOwner.setReuseAddress(true);
    this.stuckOwner.bind(new InetSocketAddress(port));
    Thread acceptor =
        new Thread(
            () -> {
              try {
                while (true) {
                  this.stuck.add(this.stuckOwner.accept());
                }
              } catch (IOException ex) {
                // closed
              }
            },
            "stuck-owner");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  private static void assertServedByStandby(HttpProbe.Answer answer, ClusterInstance standby) {
    assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
    assertThat(answer.json().path("value").asLong()).isEqualTo(3);
    assertThat(answer.header("Matview-Replica")).isEqualTo("standby");
    assertThat(answer.header("Matview-Served-By")).isEqualTo(standby.http().address());
    assertThat(Long.parseLong(answer.header("Matview-Offset-Lag"))).isBetween(0L, 1000L);
  }

  private String keyWhereCallerHoldsNoReplica(ClusterInstance caller) {
    for (int i = 0; i < PAGES; i++) {
      KeyReplicas replicas = replicas(caller, "page-" + i);
      if (!replicas.active().host().equals(caller.host())
          && replicas.standbys().stream().noneMatch((s) -> s.host().equals(caller.host()))) {
        return "page-" + i;
      }
    }
    throw new AssertionError("No key of which " + caller + " holds no replica");
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private String keyOwnedByAnother(ClusterInstance caller) {
    return keyWhere(caller, false);
  }

  private String keyOwnedBy(ClusterInstance owner) {
    return keyWhere(owner, true);
  }

  private String keyWhere(ClusterInstance instance, boolean ownedByIt) {
    for (int i = 0; i < PAGES; i++) {
      if (replicas(instance, "page-" + i).active().host().equals(instance.host()) == ownedByIt) {
        return "page-" + i;
      }
    }
    throw new AssertionError("No key " + (ownedByIt ? "owned by " : "not owned by ") + instance);
  }

  private ClusterInstance instanceAt(PartitionOwner owner) {
    return this.instances.stream()
        .filter((instance) -> instance.host().equals(owner.host()))
        .findFirst()
        .orElseThrow();
  }

  @SuppressWarnings("unchecked")
  private static KeyReplicas replicas(ClusterInstance instance, String key) {
    ResolvedView<String, ?, ?> view =
        (ResolvedView<String, ?, ?>) instance.bean(ViewRegistry.class).find(VIEW).orElseThrow();
    return instance.bean(Routing.class).replicasOfKey(view, key);
  }

  private static String path(String key, String query) {
    return "/views/" + VIEW + "/keys/" + key + query;
  }

  record PageView(String page) {}

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class FallbackApp {

    @MaterializedView(VIEW)
    ViewDefinition<String, PageView, Long> viewsPerPage() {
      return Views.from(TOPIC, PageView.class).count();
    }
  }
}
