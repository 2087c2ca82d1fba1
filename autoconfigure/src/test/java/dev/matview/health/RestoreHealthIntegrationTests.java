package dev.matview.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.processes.http.HttpProbe;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import org.springframework.util.FileSystemUtils;
import tools.jackson.databind.JsonNode;

/**
 * An instance restarted with a wiped state dir restores its view from a changelog of 20,000
 * records: while it restores, health is OUT_OF_SERVICE with each partition's lag and readiness
 * refuses traffic, and progress is logged; then health is UP with exact offsets and lookups answer
 * exact values. A user's restore listener holds the restore after its first batch, so the test sees
 * it in progress without depending on timing, and shows that Matview calls it too.
 */
@EmbeddedKafka(partitions = 2, topics = RestoreHealthIntegrationTests.TOPIC)
@ExtendWith(OutputCaptureExtension.class)
class RestoreHealthIntegrationTests {

  static final String TOPIC = "clicks";

  static final String VIEW = "clicks-per-page";

  private static final String APPLICATION_ID = "restore-health-it";

  private static final String CHANGELOG = APPLICATION_ID + "-" + VIEW + "-changelog";

  private static final int HISTORY = 20_000;

  private static final Duration TIMEOUT = Duration.ofSeconds(45);

  @TempDir Path stateDir;

  @Test
  void reportsTheRestoreInHealthReadinessAndLogsThenServesExactValues(
      EmbeddedKafkaBroker broker, CapturedOutput output) throws IOException {
    try (ConfigurableApplicationContext first = start(broker, null)) {
      HttpProbe http = http(first);
      publishClicks(broker);
      await()
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(200))
          .untilAsserted(
              () -> {
                assertThat(value(http, "home")).isEqualTo(3);
                assertThat(value(http, "cart")).isEqualTo(2);
              });
    }
    wipe(this.stateDir);
    writeHistoryToTheChangelog(broker);

    RestoreGate gate = new RestoreGate();
    try (ConfigurableApplicationContext second = start(broker, gate)) {
      HttpProbe http = http(second);
      await()
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(100))
          .untilAsserted(
              () -> {
                HttpProbe.Answer health = http.get("/actuator/health/matview");
                assertThat(health.status()).isEqualTo(503);
                assertThat(health.json().path("status").asString()).isEqualTo("OUT_OF_SERVICE");
                JsonNode partition = restoring(health.json().path("details").path("views"));
                assertThat(partition.path("role").asString()).isEqualTo("active");
                assertThat(partition.path("lag").asLong()).isPositive();
                assertThat(partition.path("endOffset").asLong())
                    .isEqualTo(
                        partition.path("currentOffset").asLong() + partition.path("lag").asLong());
                assertThat(http.get("/actuator/health/readiness").status()).isEqualTo(503);
              });
      assertThat(output).containsPattern("Restoring view 'clicks-per-page' partition [01]: \\d+%");
      HttpProbe.Answer duringRestore = http.get("/views/" + VIEW + "/keys/cart");
      assertThat(duringRestore.status()).isEqualTo(503);
      assertThat(duringRestore.header("Retry-After")).isNotEmpty();
      assertThat(duringRestore.json().path("detail").asString())
          .containsAnyOf("restoring", "rebalance");
      MeterRegistry meters = second.getBean(MeterRegistry.class);
      assertThat(restoreLag(meters)).isPositive();
      gate.release();
      await()
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(200))
          .untilAsserted(
              () -> {
                HttpProbe.Answer health = http.get("/actuator/health/matview");
                assertThat(health.json().path("status").asString()).isEqualTo("UP");
                assertThat(http.get("/actuator/health/readiness").status()).isEqualTo(200);
              });
      JsonNode partitions =
          http.get("/actuator/health/matview").json().path("details").path("views").path(VIEW);
      Map<TopicPartition, Long> ends = endOffsets(broker);
      for (int partition = 0; partition < 2; partition++) {
        JsonNode restored = partitions.path(String.valueOf(partition));
        long end = ends.get(new TopicPartition(CHANGELOG, partition));
        assertThat(restored.path("lag").asLong()).isZero();
        assertThat(restored.path("currentOffset").asLong()).isEqualTo(end);
        assertThat(restored.path("endOffset").asLong()).isEqualTo(end);
      }
      long changelog = ends.values().stream().mapToLong(Long::longValue).sum();
      assertThat(changelog - HISTORY)
          .as("updates of the five clicks' two pages, folded by the record cache between commits")
          .isBetween(2L, 5L);
      RestoreLagTracker tracker = second.getBean(RestoreLagTracker.class);
      assertThat(tracker.snapshot().stream().mapToLong(PartitionLag::records).sum())
          .isEqualTo(changelog);
      assertThat(output).contains("Restored view 'clicks-per-page' partition 0");
      assertThat(output).contains("Restored view 'clicks-per-page' partition 1");
      assertThat(meters.find("matview.restore.lag").gauges()).hasSize(2);
      assertThat(restoreLag(meters)).isZero();
      assertThat(meters.get("matview.rocksdb.memory.bound").gauge().value())
          .isGreaterThanOrEqualTo(32 * 1024 * 1024);
      assertThat(value(http, "home")).isEqualTo(3);
      assertThat(value(http, "cart")).isEqualTo(2);
      assertThat(value(http, "page-1")).isEqualTo(1);
      assertThat(value(http, "page-19999")).isEqualTo(19_999);
    } finally {
      gate.release();
    }
  }

  private ConfigurableApplicationContext start(EmbeddedKafkaBroker broker, RestoreGate gate) {
    SpringApplicationBuilder builder = new SpringApplicationBuilder(ClickViews.class);
    if (gate != null) {
      builder.initializers(
          (context) -> context.getBeanFactory().registerSingleton("restoreGate", gate));
    }
    // Arguments, unlike default properties, win over system properties that other tests leave.
    return builder.run(
        "--server.port=0",
        "--spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
        "--spring.kafka.streams.application-id=" + APPLICATION_ID,
        "--spring.kafka.streams.state-dir=" + this.stateDir,
        // A dynamic member leaves the group on close only so; the restart then
        // rebalances at once instead of after the session timeout.
        "--spring.kafka.streams.properties.internal.leave.group.on.close=true",
        "--matview.advertised-host=localhost",
        "--matview.rocksdb.total-memory=32MB",
        "--matview.health.min-free-disk=0",
        "--management.endpoint.health.show-details=always");
  }

  private static HttpProbe http(ConfigurableApplicationContext context) {
    return HttpProbe.localhost(((WebServerApplicationContext) context).getWebServer().getPort());
  }

  private static long value(HttpProbe http, String page) {
    HttpProbe.Answer answer = http.get("/views/" + VIEW + "/keys/" + page);
    assertThat(answer.status()).isEqualTo(200);
    return answer.json().path("value").asLong();
  }

  private static double restoreLag(MeterRegistry meters) {
    return meters.find("matview.restore.lag").tag("view", VIEW).gauges().stream()
        .mapToDouble(Gauge::value)
        .sum();
  }

  private static JsonNode restoring(JsonNode views) {
    JsonNode partitions = views.path(VIEW);
    assertThat(partitions.isObject()).as("partitions of %s in %s", VIEW, views).isTrue();
    List<JsonNode> behind = new ArrayList<>();
    partitions.forEach(
        (partition) -> {
          if (partition.path("lag").asLong() > 0
              && partition.path("recordsPerSecond").asLong() > 0
              && partition.path("etaSeconds").asLong() > 0) {
            behind.add(partition);
          }
        });
    assertThat(behind).as("partitions restoring at a known rate in %s", views).isNotEmpty();
    return behind.get(0);
  }

  private static void publishClicks(EmbeddedKafkaBroker broker) {
    try (Producer<String, String> producer =
        new KafkaProducer<>(
            KafkaTestUtils.producerProps(broker), new StringSerializer(), new StringSerializer())) {
      for (String page : List.of("home", "cart", "home", "cart", "home")) {
        producer.send(new ProducerRecord<>(TOPIC, page, "{\"page\": \"" + page + "\"}"));
      }
    }
  }

  private static void writeHistoryToTheChangelog(EmbeddedKafkaBroker broker) {
    try (Producer<String, Long> producer =
        new KafkaProducer<>(
            KafkaTestUtils.producerProps(broker), new StringSerializer(), new LongSerializer())) {
      for (long i = 0; i < HISTORY; i++) {
        producer.send(new ProducerRecord<>(CHANGELOG, "page-" + i, i));
      }
    }
  }

  private static Map<TopicPartition, Long> endOffsets(EmbeddedKafkaBroker broker) {
    try (Consumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            KafkaTestUtils.consumerProps(broker, "restore-health-it-check", false),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      return consumer.endOffsets(
          List.of(new TopicPartition(CHANGELOG, 0), new TopicPartition(CHANGELOG, 1)));
    }
  }

  private static void wipe(Path directory) throws IOException {
    try (Stream<Path> children = Files.list(directory)) {
      for (Path child : children.toList()) {
        FileSystemUtils.deleteRecursively(child);
      }
    }
  }

  /** Holds the restore after its first batch until released, as a user's listener may. */
  static final class RestoreGate implements StateRestoreListener {

    private final CountDownLatch released = new CountDownLatch(1);

    void release() {
      this.released.countDown();
    }

    @Override
    public void onRestoreStart(TopicPartition partition, String store, long start, long end) {}

    @Override
    public void onBatchRestored(TopicPartition partition, String store, long end, long count) {
      try {
        this.released.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public void onRestoreEnd(TopicPartition partition, String store, long total) {}
  }

  record Click(String page) {}

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class ClickViews {

    @MaterializedView(VIEW)
    ViewDefinition<String, Click, Long> clicksPerPage() {
      return Views.from(TOPIC, Click.class).count();
    }
  }
}
