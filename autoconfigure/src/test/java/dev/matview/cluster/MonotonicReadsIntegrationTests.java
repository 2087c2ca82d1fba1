package dev.matview.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.peer.PeerPath;
import dev.matview.processes.http.HttpProbe;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.peer.PeerMarks;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import dev.matview.web.Consistency;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;

/**
 * A client that alternates between the active replica and a standby that lags thousands of offsets
 * behind it never sees a value older than one it saw, as long as it sends back the position each
 * answer carries: the standby waits for it or says 503. Without the position it does go back.
 *
 * <p>The standby lags by construction: under {@code exactly_once_v2} the active replica's store
 * holds every update at once, which the client reads with {@code isolation=uncommitted}, while the
 * changelog the standby reads shows them only when the active commits, every {@value #COMMIT_MS}
 * ms.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MonotonicReadsIntegrationTests {

  private static final String TOPIC = "clicks";

  private static final String VIEW = "clicks-per-page";

  private static final String KEY = "page-1";

  private static final long COMMIT_MS = 5_000;

  private static final int CLICKS = 40_000;

  private static final String SECRET = "monotonic-it-shared-secret-0123456789abcdef";

  @TempDir static Path stateDirs;

  private EmbeddedKafkaKraftBroker broker;

  private ClusterInstance active;

  private ClusterInstance standby;

  @BeforeAll
  void startAnActiveAndAStandby() {
    this.broker = new EmbeddedKafkaKraftBroker(1, 1, TOPIC);
    this.broker.brokerProperties(
        Map.of(
            "transaction.state.log.replication.factor", "1",
            "transaction.state.log.min.isr", "1"));
    this.broker.afterPropertiesSet();
    ClusterInstance first = start(1);
    this.active = first;
    await("the first instance holds the partition")
        .atMost(Duration.ofSeconds(60))
        .until(() -> first.http().get(path("")).status() == 404);
    ClusterInstance second = start(2);
    this.standby = second;
    await("one instance runs the partition and the other keeps a standby copy")
        .atMost(Duration.ofSeconds(120))
        .until(
            () ->
                first.streams().streamsMetadataForStore(VIEW).stream()
                    .anyMatch((host) -> !host.standbyTopicPartitions().isEmpty()));
    boolean firstIsActive =
        first.streams().streamsMetadataForStore(VIEW).stream()
            .anyMatch(
                (host) ->
                    host.hostInfo().port() == first.port() && !host.topicPartitions().isEmpty());
    this.active = firstIsActive ? first : second;
    this.standby = firstIsActive ? second : first;
    await("both instances run")
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                this.active.streams().state() == KafkaStreams.State.RUNNING
                    && this.standby.streams().state() == KafkaStreams.State.RUNNING
                    && this.active.http().get(path("")).status() == 404);
    HostInfo activeHost = new HostInfo("localhost", this.active.port());
    this.standby
        .bean(PeerMarks.class)
        .observed(
            activeHost,
            new Routed.Refused<>(
                Refusal.ofPeer(
                    Refusal.Reason.UNREACHABLE,
                    VIEW,
                    new PartitionOwner(0, activeHost),
                    "refused the connection")));
  }

  private ClusterInstance start(int n) {
    return ClusterInstance.start(
        MonotonicApp.class,
        this.broker.getBrokersAsString(),
        "monotonic-it",
        stateDirs.resolve("instance-" + n),
        "--matview.standby-replicas=1",
        "--matview.peers.secret=" + SECRET,
        "--matview.peers.down-time=10m",
        "--matview.consistency.max-wait=500ms",
        "--spring.kafka.streams.properties.processing.guarantee=exactly_once_v2",
        "--spring.kafka.streams.properties.commit.interval.ms=" + COMMIT_MS);
  }

  @AfterAll
  void stopEverything() {
    for (ClusterInstance instance : new ClusterInstance[] {this.standby, this.active}) {
      if (instance != null) {
        instance.close();
      }
    }
    if (this.broker != null) {
      this.broker.destroy();
    }
  }

  @Test
  void alternatingBetweenTheActiveAndALaggingStandbyNeverGoesBackInTimeWithPositions()
      throws Exception {
    CompletableFuture<Void> clicks = CompletableFuture.runAsync(this::publishClicks);
    long seen = 0;
    long seenWithout = 0;
    int wentBackWithout = 0;
    int fromStandby = 0;
    int refused = 0;
    String position = null;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(14);
    for (int i = 0; System.nanoTime() < deadline; i++) {
      ClusterInstance asked = (i % 2 == 0) ? this.active : this.standby;
      HttpProbe.Answer answer =
          (position != null)
              ? asked
                  .http()
                  .get(
                      path("?allowStale=true&maxLag=1000000&isolation=uncommitted"),
                      "Matview-Position",
                      position)
              : asked.http().get(path("?allowStale=true&maxLag=1000000&isolation=uncommitted"));
      assertThat(answer.status()).as(answer.describe()).isIn(200, 404, 503);
      if (answer.status() == 503) {
        if (answer.json().path("type").asString().endsWith("position-not-reached")) {
          refused++;
        }
      } else if (answer.status() == 200) {
        long value = answer.json().path("value").asLong();
        assertThat(value)
            .as("answer %d from %s went back in time", i, asked.port())
            .isGreaterThanOrEqualTo(seen);
        seen = value;
        position = answer.header(Consistency.POSITION_HEADER);
        if (answer.header("Matview-Replica").equals("standby")) {
          fromStandby++;
        }
      }
      HttpProbe.Answer without =
          asked.http().get(path("?allowStale=true&maxLag=1000000&isolation=uncommitted"));
      if (without.status() == 200) {
        long value = without.json().path("value").asLong();
        if (value < seenWithout) {
          wentBackWithout++;
        }
        seenWithout = Math.max(seenWithout, value);
      }
    }
    clicks.get(60, TimeUnit.SECONDS);
    assertThat(fromStandby).as("answers the standby gave within the position").isPositive();
    assertThat(wentBackWithout + refused)
        .as(
            "answers that show the standby lagged: without a position older than one seen (%d),"
                + " with one refused as behind it (%d)",
            wentBackWithout, refused)
        .isPositive();
  }

  @Test
  void theActiveAnswersCommittedStateByDefaultUnderExactlyOnce() throws Exception {
    CompletableFuture<Void> clicks = CompletableFuture.runAsync(this::publishClicks);
    long committedSeen = 0;
    int aheadOfCommitted = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(12);
    while (System.nanoTime() < deadline) {
      HttpProbe.Answer committed = this.active.http().get(path(""));
      HttpProbe.Answer uncommitted = this.active.http().get(path("?isolation=uncommitted"));
      assertThat(committed.status()).as(committed.describe()).isIn(200, 404);
      assertThat(uncommitted.status()).as(uncommitted.describe()).isIn(200, 404);
      long value = (committed.status() == 200) ? committed.json().path("value").asLong() : 0;
      long applied = (uncommitted.status() == 200) ? uncommitted.json().path("value").asLong() : 0;
      assertThat(value).as("committed answers never go back").isGreaterThanOrEqualTo(committedSeen);
      assertThat(value)
          .as("a committed answer read before an uncommitted one is not newer")
          .isLessThanOrEqualTo(applied);
      committedSeen = value;
      if (applied > value) {
        aheadOfCommitted++;
      }
    }
    clicks.get(60, TimeUnit.SECONDS);
    assertThat(aheadOfCommitted)
        .as("uncommitted answers that held updates the active had not committed yet")
        .isPositive();
    HttpProbe.Answer bogus = this.active.http().get(path("?isolation=dirty"));
    assertThat(bogus.status()).as(bogus.describe()).isEqualTo(400);
    assertThat(bogus.json().path("detail").asString())
        .contains("'isolation' must be committed or uncommitted, was 'dirty'");
  }

  private void publishClicks() {
    try (Producer<String, String> producer =
        new KafkaProducer<>(
            KafkaTestUtils.producerProps(this.broker),
            new StringSerializer(),
            new StringSerializer())) {
      for (int i = 0; i < CLICKS; i++) {
        producer.send(new ProducerRecord<>(TOPIC, KEY, "{\"page\":\"" + KEY + "\"}"));
      }
      producer.flush();
    }
  }

  private static String path(String query) {
    return "/views/" + VIEW + "/keys/" + PeerPath.encode(KEY) + query;
  }

  record Click(String page) {}

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class MonotonicApp {

    @MaterializedView(VIEW)
    ViewDefinition<String, Click, Long> clicksPerPage() {
      return Views.from(TOPIC, Click.class).count();
    }
  }
}
