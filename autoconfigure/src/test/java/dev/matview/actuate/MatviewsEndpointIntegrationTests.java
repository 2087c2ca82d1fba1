package dev.matview.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.processes.http.HttpProbe;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import org.springframework.util.unit.DataSize;
import tools.jackson.databind.JsonNode;

/**
 * {@code /actuator/matviews}, the disk gauges and the disk's health on a real broker and real
 * RocksDB stores.
 *
 * <p>RocksDB writes SST files only when it flushes a memtable. Kafka Streams flushes a task's
 * stores when it checkpoints, which it does at a commit once the task's changelogs have moved more
 * than 10,000 offsets since the last checkpoint (and on close), while the write buffer manager
 * would flush only once the memtables fill its 8MB share of the 32MB bound. So the test writes
 * 24,000 distinct keys, about 12,000 to each of the two partitions: each task then checkpoints, and
 * the view's live SST files appear, without closing the application or waiting for time to pass.
 */
@EmbeddedKafka(partitions = 2, topics = MatviewsEndpointIntegrationTests.TOPIC)
class MatviewsEndpointIntegrationTests {

  static final String TOPIC = "clicks";

  static final String VIEW = "clicks-per-page";

  private static final int PAGES = 24_000;

  private static final Duration TIMEOUT = Duration.ofSeconds(40);

  @TempDir Path stateDir;

  @Test
  void reportsTheViewTheTopologyTheInstanceWithItsPartitionsAndTheViewsSizeOnDisk(
      EmbeddedKafkaBroker broker) {
    try (ConfigurableApplicationContext app = start(broker, "matviews-endpoint-it")) {
      HttpProbe http = http(app);
      publishClicks(broker);
      await()
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(250))
          .untilAsserted(
              () -> {
                JsonNode view = matviews(http).path("views").path(0);
                assertThat(view.path("diskBytes").asLong()).isPositive();
                assertThat(http.get("/views/" + VIEW + "/keys/page-" + (PAGES - 1)).status())
                    .isEqualTo(200);
              });
      JsonNode matviews = matviews(http);
      JsonNode view = matviews.path("views").path(0);
      assertThat(matviews.path("views")).hasSize(1);
      assertThat(view.path("name").asString()).isEqualTo(VIEW);
      assertThat(view.path("kind").asString()).isEqualTo("table");
      assertThat(view.path("keyType").asString()).isEqualTo("String");
      assertThat(view.path("valueType").asString()).isEqualTo("Long");
      assertThat(view.path("storeName").asString()).isEqualTo(VIEW);
      assertThat(view.path("sourceTopic").asString()).isEqualTo(TOPIC);
      assertThat(view.path("repartitionTopic").isMissingNode()).isTrue();
      assertThat(view.path("window").isMissingNode()).isTrue();
      assertThat(view.path("changelogTopic").asString())
          .isEqualTo("matviews-endpoint-it-" + VIEW + "-changelog");
      assertThat(matviews.path("topology").asString())
          .startsWith("Topologies:")
          .contains("Source: ")
          .contains("[" + TOPIC + "]")
          .contains("stores: [" + VIEW + "]");

      String self = "localhost:" + port(app);
      JsonNode instances = matviews.path("instances");
      assertThat(instances).hasSize(1);
      JsonNode instance = instances.path(0);
      assertThat(instance.path("host").asString()).isEqualTo(self);
      assertThat(instance.path("local").asBoolean()).isTrue();
      assertThat(numbers(instance.path("active").path(VIEW))).containsExactly(0, 1);
      assertThat(instance.path("standby").isEmpty()).isTrue();
      assertThat(http.get("/views/" + VIEW + "/keys/page-1").header("Matview-Served-By"))
          .isEqualTo(self);

      assertThat(matviews.path("lags").isArray()).isTrue();
      matviews
          .path("lags")
          .forEach((lag) -> assertThat(lag.path("lag").asLong()).as("%s", lag).isZero());
      assertThat(matviews.path("rocksdbMemory").path("boundBytes").asLong())
          .isGreaterThanOrEqualTo(DataSize.ofMegabytes(32).toBytes());
      JsonNode disk = matviews.path("disk");
      assertThat(disk.path("stateDir").asString())
          .isEqualTo(this.stateDir.toAbsolutePath().toString());
      assertThat(disk.path("freeBytes").asLong()).isPositive();
      assertThat(disk.path("minFreeBytes").asLong()).isEqualTo(DataSize.ofGigabytes(1).toBytes());

      assertThat(matviews.path("lookupBasePath").asString()).isEqualTo("/views");
      assertThat(matviews.path("lookups").path("routes").path("local").path("counts").isArray())
          .isTrue();
      assertThat(matviews.path("deadLetters").isEmpty()).isTrue();

      MeterRegistry meters = app.getBean(MeterRegistry.class);
      assertThat(meters.get("matview.disk.used").tag("view", VIEW).gauge().value()).isPositive();
      assertThat(meters.get("matview.disk.free").gauge().value()).isPositive();
    }
  }

  @Test
  void turnsHealthOutOfServiceWithTheReasonWhenLessDiskIsFreeThanTheThresholdButKeepsServing(
      EmbeddedKafkaBroker broker) {
    long threshold = this.stateDir.toFile().getUsableSpace() + DataSize.ofGigabytes(1024).toBytes();
    try (ConfigurableApplicationContext app =
        start(broker, "disk-pressure-it", "--matview.health.min-free-disk=" + threshold + "B")) {
      HttpProbe http = http(app);
      await()
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(250))
          .untilAsserted(
              () -> {
                HttpProbe.Answer health = http.get("/actuator/health/matview");
                assertThat(health.json().path("details").path("state").asString())
                    .isEqualTo("RUNNING");
                assertThat(health.status()).isEqualTo(503);
                assertThat(health.json().path("status").asString()).isEqualTo("OUT_OF_SERVICE");
                assertThat(http.get("/actuator/health/readiness").status()).isEqualTo(200);
              });
      JsonNode details = http.get("/actuator/health/matview").json().path("details");
      assertThat(details.path("reason").asString())
          .startsWith("Only ")
          .contains("free on the disk of the state dir " + this.stateDir.toAbsolutePath())
          .contains("less than matview.health.min-free-disk=")
          .contains(
              "Free space on that disk, give it more, or move spring.kafka.streams.state-dir");
      assertThat(details.path("disk").path("minFreeBytes").asLong()).isEqualTo(threshold);
      assertThat(details.path("disk").path("freeBytes").asLong()).isLessThan(threshold);
      assertThat(http.get("/actuator/health").json().path("status").asString())
          .isEqualTo("OUT_OF_SERVICE");
      assertThat(matviews(http).path("disk").path("minFreeBytes").asLong()).isEqualTo(threshold);
    }
  }

  private ConfigurableApplicationContext start(
      EmbeddedKafkaBroker broker, String applicationId, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--spring.main.banner-mode=off",
                "--server.port=0",
                "--spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
                "--spring.kafka.streams.application-id=" + applicationId,
                "--spring.kafka.streams.state-dir=" + this.stateDir,
                "--spring.kafka.streams.properties.commit.interval.ms=100",
                "--matview.advertised-host=localhost",
                "--matview.rocksdb.total-memory=32MB",
                "--management.endpoints.web.exposure.include=health,matviews",
                "--management.endpoint.health.show-details=always"));
    args.addAll(List.of(more));
    return new SpringApplicationBuilder(ClickViews.class).run(args.toArray(String[]::new));
  }

  private static int port(ConfigurableApplicationContext context) {
    return ((WebServerApplicationContext) context).getWebServer().getPort();
  }

  private static HttpProbe http(ConfigurableApplicationContext context) {
    return HttpProbe.localhost(port(context));
  }

  private static JsonNode matviews(HttpProbe http) {
    HttpProbe.Answer answer = http.get("/actuator/matviews");
    assertThat(answer.status()).isEqualTo(200);
    return answer.json();
  }

  private static List<Integer> numbers(JsonNode array) {
    List<Integer> numbers = new ArrayList<>();
    array.forEach((number) -> numbers.add(number.asInt()));
    return numbers;
  }

  private static void publishClicks(EmbeddedKafkaBroker broker) {
    try (Producer<String, String> producer =
        new KafkaProducer<>(
            KafkaTestUtils.producerProps(broker), new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < PAGES; i++) {
        producer.send(new ProducerRecord<>(TOPIC, "page-" + i, "{\"page\": \"page-" + i + "\"}"));
      }
    }
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
