package dev.matview.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.processes.http.HttpProbe;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
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
import tools.jackson.databind.JsonNode;

/**
 * Three views over a topic of 128 partitions open hundreds of RocksDB stores in one instance (a
 * windowed view's segments each count), and their shared cache, memtables included, never holds
 * more than the configured 40 MiB while 24,000 records are aggregated. With RocksDB's default
 * memtable blocks of a megabyte, the first record of each store alone would take it past 300 MiB.
 * The start-up checks count the stores every partition may open against the bound's room.
 */
@EmbeddedKafka(partitions = ManyStoresMemoryIntegrationTests.PARTITIONS, topics = "readings")
@ExtendWith(OutputCaptureExtension.class)
class ManyStoresMemoryIntegrationTests {

  static final int PARTITIONS = 128;

  private static final long BOUND = 40L * 1024 * 1024;

  private static final int SENSORS = 8_000;

  private static final int ROUNDS = 3;

  /**
   * The stores the start-up checks plan for, which grow the memtables' share to half the bound: the
   * pool the test samples is the one Kafka Streams' stores open only if they got that share.
   */
  private static final long PLANNED_STORES = 640;

  private static final Duration TIMEOUT = Duration.ofMinutes(3);

  @TempDir Path stateDir;

  @Test
  void sharedCacheStaysWithinTheBoundWhileHundredsOfStoresAggregate(
      EmbeddedKafkaBroker broker, CapturedOutput output) {
    SharedRocksDBMemory memory =
        SharedRocksDBMemory.forLimits(new RocksDBMemoryLimits(BOUND, 0.25, false, PLANNED_STORES));
    AtomicLong maxUsed = new AtomicLong();
    AtomicInteger maxOpen = new AtomicInteger();
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    sampler.scheduleAtFixedRate(
        () -> {
          maxUsed.accumulateAndGet(memory.usedBytes(), Math::max);
          maxOpen.accumulateAndGet(memory.openStores(), Math::max);
        },
        0,
        5,
        TimeUnit.MILLISECONDS);
    try (ConfigurableApplicationContext context = start(broker)) {
      assertThat(output)
          .contains(
              "(up to 640 RocksDB stores in one instance, room for 1493 in the bound,"
                  + " memtables flushed at 20 MB)");
      HttpProbe http =
          HttpProbe.localhost(((WebServerApplicationContext) context).getWebServer().getPort());
      publishReadings(broker);
      await("every sensor counted " + ROUNDS + " times")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(500))
          .untilAsserted(
              () -> {
                for (int sensor = 0; sensor < SENSORS; sensor += SENSORS / 50) {
                  assertThat(count(http, "sensor-" + sensor)).isEqualTo(ROUNDS);
                }
                assertThat(count(http, "sensor-" + (SENSORS - 1))).isEqualTo(ROUNDS);
              });
      JsonNode total = http.get("/views/amount-per-sensor/keys/sensor-7").json();
      assertThat(total.path("value").asLong()).isEqualTo(ROUNDS * 7L);
      await(
              "every partition of the three views' stores open at once, the windowed view's once"
                  + " a commit writes its record cache")
          .atMost(TIMEOUT)
          .until(() -> maxOpen.get() >= 3 * PARTITIONS);
    } finally {
      sampler.shutdownNow();
    }
    assertThat(maxUsed.get())
        .as("most bytes the shared cache held, memtables included")
        .isPositive()
        .isLessThanOrEqualTo(BOUND);
  }

  private ConfigurableApplicationContext start(EmbeddedKafkaBroker broker) {
    return new SpringApplicationBuilder(ReadingViews.class)
        .run(
            "--server.port=0",
            "--spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
            "--spring.kafka.streams.application-id=many-stores-it",
            "--spring.kafka.streams.state-dir=" + this.stateDir,
            "--spring.kafka.streams.properties.commit.interval.ms=1000",
            "--matview.advertised-host=localhost",
            "--matview.rocksdb.total-memory=40MB",
            "--matview.health.min-free-disk=0");
  }

  private static long count(HttpProbe http, String sensor) {
    HttpProbe.Answer answer = http.get("/views/readings-per-sensor/keys/" + sensor);
    return answer.status() == 200 ? answer.json().path("value").asLong() : -1;
  }

  private static void publishReadings(EmbeddedKafkaBroker broker) {
    long now = Instant.now().toEpochMilli();
    try (Producer<String, String> producer =
        new KafkaProducer<>(
            KafkaTestUtils.producerProps(broker), new StringSerializer(), new StringSerializer())) {
      for (int round = 0; round < ROUNDS; round++) {
        for (int sensor = 0; sensor < SENSORS; sensor++) {
          String key = "sensor-" + sensor;
          producer.send(
              new ProducerRecord<>(
                  "readings",
                  null,
                  now,
                  key,
                  "{\"sensor\":\"" + key + "\",\"amount\":" + sensor + "}"));
        }
      }
    }
  }

  record Reading(String sensor, long amount) {}

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class ReadingViews {

    @MaterializedView("readings-per-sensor")
    ViewDefinition<String, Reading, Long> readingsPerSensor() {
      return Views.from("readings", Reading.class).count();
    }

    @MaterializedView("amount-per-sensor")
    ViewDefinition<String, Reading, Long> amountPerSensor() {
      return Views.from("readings", Reading.class).sum(Reading::amount);
    }

    @MaterializedView("readings-per-sensor-per-minute")
    ViewDefinition<String, Reading, Long> readingsPerSensorPerMinute() {
      return Views.from("readings", Reading.class)
          .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)))
          .count();
    }
  }
}
