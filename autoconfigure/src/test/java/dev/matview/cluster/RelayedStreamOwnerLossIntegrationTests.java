package dev.matview.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.changes.ChangeStreams;
import dev.matview.processes.ChildJvm;
import dev.matview.processes.LocalPorts;
import dev.matview.processes.http.HttpProbe;
import dev.matview.processes.http.ServerSentEvent;
import dev.matview.processes.http.ServerSentEventReader;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import dev.matview.web.ViewController;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * A key's stream relayed by one instance from another that owns its partition, when that owner is
 * paused (SIGSTOP, its connections left open) or killed mid-stream: the relay ends within its idle
 * deadline with an event that names the last id the client saw, gives back its slot, its connection
 * and no thread stays behind; the client that resumes with that id once the partition has moved
 * sees the key's value with every like, the one made while the owner was gone included. The owner
 * runs in a JVM of its own, so that the test can stop and kill it; this JVM holds the broker and
 * the relaying instance.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RelayedStreamOwnerLossIntegrationTests {

  private static final String TOPIC = "likes";

  private static final String VIEW = "likes-per-post";

  private static final int POSTS = 16;

  private static final Duration HEARTBEAT = Duration.ofSeconds(1);

  /** Two heartbeats, and the time an I/O reactor and a busy machine may take to notice. */
  private static final Duration RELAY_ENDS_WITHIN = Duration.ofSeconds(15);

  private static final AtomicInteger RUNS = new AtomicInteger();

  @TempDir static Path workDir;

  private final JsonMapper json = JsonMapper.builder().build();

  private EmbeddedKafkaKraftBroker broker;

  private Producer<String, String> producer;

  private @Nullable ChildJvm owner;

  private @Nullable ClusterInstance relay;

  @BeforeAll
  void startBroker() {
    this.broker = new EmbeddedKafkaKraftBroker(1, 4, TOPIC);
    this.broker.afterPropertiesSet();
    this.producer =
        new KafkaProducer<>(
            KafkaTestUtils.producerProps(this.broker),
            new StringSerializer(),
            new StringSerializer());
  }

  @AfterEach
  void stopInstances() {
    if (this.owner != null) {
      this.owner.kill();
    }
    if (this.relay != null) {
      this.relay.close();
    }
  }

  @AfterAll
  void stopBroker() {
    if (this.producer != null) {
      this.producer.close();
    }
    if (this.broker != null) {
      this.broker.destroy();
    }
  }

  @Test
  void aRelayedStreamWhoseOwnerIsPausedEndsSayingWhereToResumeAndLeavesNothingBehind()
      throws Exception {
    followAcrossTheLossOfTheOwner(
        (pid) -> {
          Process stop = new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start();
          assertThat(stop.waitFor(10, TimeUnit.SECONDS)).isTrue();
          assertThat(stop.exitValue()).as("kill -STOP %d", pid).isZero();
        });
  }

  @Test
  void aRelayedStreamWhoseOwnerIsKilledEndsSayingWhereToResumeAndLeavesNothingBehind()
      throws Exception {
    followAcrossTheLossOfTheOwner((pid) -> this.owner.kill());
  }

  private void followAcrossTheLossOfTheOwner(OwnerLoss loss) throws Exception {
    int ownerPort = startTwoInstances();
    String post = postOwnedBy(ownerPort);
    ChangeStreams streams = this.relay.bean(ChangeStreams.class);
    try (StreamReader warmUp = open(post, null)) {
      assertThat(warmUp.next().name()).isEqualTo("value");
    }
    await("the warm-up stream is counted back")
        .atMost(Duration.ofSeconds(30))
        .until(streams::openStreams, (open) -> open == 0);
    long threadsBefore = relayThreads();
    long connectionsBefore = establishedConnectionsTo(ownerPort);

    String lastId;
    long value;
    try (StreamReader events = open(post, null)) {
      ServerSentEvent first = events.next();
      assertThat(first.name()).isEqualTo("value");
      value = valueOf(first);
      lastId = first.id();
      for (int i = 1; i <= 3; i++) {
        like(post);
        ServerSentEvent next = events.next();
        assertThat(next.name()).as(next.toString()).isEqualTo("value");
        assertThat(valueOf(next)).isEqualTo(++value);
        lastId = next.id();
      }
      assertThat(streams.openStreams()).isEqualTo(1);

      long lost = System.nanoTime();
      loss.of(this.owner.pid());
      like(post);
      ServerSentEvent last = events.next();
      Duration endedAfter = Duration.ofNanos(System.nanoTime() - lost);
      assertThat(last.name()).as(last.toString()).isEqualTo("reconnect");
      assertThat(this.json.readTree(last.data()).path("lastEventId").asString())
          .as("the id to resume from: the last event the client saw")
          .isEqualTo(lastId);
      assertThat(endedAfter).isLessThan(RELAY_ENDS_WITHIN);
    }
    await("the relay gives back its slot, its connection and its threads")
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              assertThat(streams.openStreams()).isZero();
              assertThat(establishedConnectionsTo(ownerPort))
                  .isLessThanOrEqualTo(connectionsBefore);
              assertThat(relayThreads()).isLessThanOrEqualTo(threadsBefore);
            });

    long expected = value + 1;
    String resumeFrom = lastId;
    await("a client that resumes from the last id sees the like made while the owner was gone")
        .atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> resumedValue(post, resumeFrom), (seen) -> seen == expected);
    await("every stream that resumed is counted back, and every relay to the lost owner closed")
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              assertThat(streams.openStreams()).isZero();
              assertThat(establishedConnectionsTo(ownerPort))
                  .isLessThanOrEqualTo(connectionsBefore);
            });
  }

  /**
   * The value the key's stream resumed after {@code lastId} starts from or reaches, or -1 when it
   * ended before a value, such as a relay to an owner that is still gone.
   */
  private long resumedValue(String post, String lastId) throws Exception {
    try (StreamReader events = new StreamReader(changes(post, lastId))) {
      if (events.events().status() != 200) {
        return -1;
      }
      long seen = -1;
      for (ServerSentEvent event = events.next(); ; event = events.next()) {
        if (event.name().equals("value")) {
          seen = valueOf(event);
          return seen;
        }
        if (event.name().equals("reconnect") || event.name().equals("dropped")) {
          return seen;
        }
      }
    }
  }

  /** Starts the owner's JVM and the relaying instance in this one; the owner's port. */
  private int startTwoInstances() {
    String applicationId = "relay-loss-" + RUNS.incrementAndGet();
    int ownerPort = LocalPorts.free();
    Path dir = workDir.resolve(applicationId);
    this.owner =
        new ChildJvm(
            "owner",
            List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
            RelayOwnerMain.class,
            settings(
                applicationId,
                dir.resolve("owner-state"),
                "--server.port=" + ownerPort,
                "--logging.level.root=WARN"),
            dir);
    this.owner.start();
    this.relay =
        ClusterInstance.start(
            RelayApp.class,
            this.broker.getBrokersAsString(),
            applicationId,
            dir.resolve("relay-state"),
            settings(applicationId, dir.resolve("relay-state")).toArray(String[]::new));
    HttpProbe ownerHttp = HttpProbe.localhost(ownerPort);
    for (int post = 0; post < POSTS; post++) {
      like("post-" + post);
    }
    await("the owner serves its share of the posts, and the relaying instance every post")
        .atMost(Duration.ofMinutes(3))
        .pollInterval(Duration.ofMillis(500))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              assertThat(this.owner.isAlive()).as("see %s", this.owner.logFile()).isTrue();
              assertThat(ownerHttp.get(path("post-0")).status()).isEqualTo(200);
              for (int post = 0; post < POSTS; post++) {
                assertThat(this.relay.http().get(path("post-" + post)).status()).isEqualTo(200);
              }
              assertThat(postOwnedBy(ownerPort)).isNotNull();
            });
    return ownerPort;
  }

  private List<String> settings(String applicationId, Path stateDir, String... more) {
    List<String> settings =
        new java.util.ArrayList<>(
            List.of(
                "--spring.main.banner-mode=off",
                "--spring.kafka.bootstrap-servers=" + this.broker.getBrokersAsString(),
                "--spring.kafka.streams.application-id=" + applicationId,
                "--spring.kafka.streams.state-dir=" + stateDir,
                "--spring.kafka.streams.properties.commit.interval.ms=100",
                "--spring.kafka.streams.properties.session.timeout.ms=6000",
                "--spring.kafka.streams.properties.heartbeat.interval.ms=1000",
                "--matview.advertised-host=localhost",
                "--matview.rocksdb.total-memory=32MB",
                "--matview.health.min-free-disk=0",
                "--matview.peers.secret=relay-loss-it-shared-secret-0123456789abcdef",
                "--matview.changes.heartbeat=" + HEARTBEAT.toMillis() + "ms"));
    settings.addAll(List.of(more));
    return settings;
  }

  private @Nullable String postOwnedByOrNull(int ownerPort) {
    for (int post = 0; post < POSTS; post++) {
      HttpProbe.Answer answer = this.relay.http().get(path("post-" + post));
      String servedBy = answer.header(ViewController.SERVED_BY_HEADER);
      if (answer.status() == 200 && servedBy != null && servedBy.endsWith(":" + ownerPort)) {
        return "post-" + post;
      }
    }
    return null;
  }

  private String postOwnedBy(int ownerPort) {
    String post = postOwnedByOrNull(ownerPort);
    if (post == null) {
      throw new AssertionError("the instance on port " + ownerPort + " owns no post yet");
    }
    return post;
  }

  /** Threads of this JVM that relay streams: the peers' I/O threads and the streams' workers. */
  private static long relayThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .map(Thread::getName)
        .filter((name) -> name.startsWith("matview-peer-io-") || name.startsWith("matview-worker-"))
        .count();
  }

  /** Established TCP connections of this host to the owner's port: those this JVM opened. */
  private static long establishedConnectionsTo(int port) {
    String remotePort = String.format(":%04X", port);
    long count = 0;
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      Path file = Path.of(table);
      if (!Files.exists(file)) {
        continue;
      }
      try (Stream<String> lines = Files.lines(file)) {
        count +=
            lines
                .skip(1)
                .map(String::strip)
                .map((line) -> line.split("\\s+"))
                .filter((fields) -> fields[2].endsWith(remotePort) && fields[3].equals("01"))
                .count();
      } catch (IOException ex) {
        throw new UncheckedIOException(ex);
      }
    }
    return count;
  }

  private StreamReader open(String post, @Nullable String lastEventId) {
    ServerSentEventReader events = changes(post, lastEventId);
    assertThat(events.status()).isEqualTo(200);
    return new StreamReader(events);
  }

  /** The key's stream asked of the relay, however long the relay takes to answer its head. */
  private ServerSentEventReader changes(String post, @Nullable String lastEventId) {
    String changes = path(post) + "/changes";
    HttpProbe http = this.relay.http().withTimeout(Duration.ofMinutes(1));
    return (lastEventId != null)
        ? http.events(changes, "Last-Event-ID", lastEventId)
        : http.events(changes);
  }

  private long valueOf(ServerSentEvent event) {
    return this.json.readTree(event.data()).path("value").asLong();
  }

  private void like(String post) {
    try {
      this.producer
          .send(new ProducerRecord<>(TOPIC, post, "{\"post\":\"" + post + "\"}"))
          .get(30, TimeUnit.SECONDS);
    } catch (Exception ex) {
      throw new IllegalStateException("Could not publish a like", ex);
    }
  }

  private static String path(String post) {
    return "/views/" + VIEW + "/keys/" + post;
  }

  /** How the owner is lost, given its PID. */
  @FunctionalInterface
  private interface OwnerLoss {
    void of(long pid) throws Exception;
  }

  /** A stream's events, each waited for at most 30 seconds. */
  private record StreamReader(ServerSentEventReader events) implements AutoCloseable {

    ServerSentEvent next() throws InterruptedException {
      return this.events.next(Duration.ofSeconds(30));
    }

    @Override
    public void close() {
      this.events.close();
    }
  }

  record Like(String post) {}

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class RelayApp {

    @MaterializedView(VIEW)
    ViewDefinition<String, Like, Long> likesPerPost() {
      return Views.from(TOPIC, Like.class).count();
    }
  }
}
