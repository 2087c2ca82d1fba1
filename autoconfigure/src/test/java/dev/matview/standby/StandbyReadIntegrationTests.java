package dev.matview.standby;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.health.PartitionLag;
import dev.matview.health.RestoreLagTracker;
import dev.matview.processes.http.HttpProbe;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
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
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;

/**
 * Two instances with one standby replica each: when the owner of a key cannot be reached, its
 * standby on the other instance answers if the caller allows stale reads, and says so in its
 * headers; without that permission the caller gets 503.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StandbyReadIntegrationTests {

  private static final String TOPIC = "visits";

  private static final int KEYS = 60;

  @TempDir static Path stateDirs;

  private final List<ConfigurableApplicationContext> instances = new ArrayList<>();

  private EmbeddedKafkaKraftBroker broker;

  @BeforeAll
  void startTwoInstancesWithStandbys() {
    this.broker = new EmbeddedKafkaKraftBroker(1, 4, TOPIC);
    this.broker.afterPropertiesSet();
    for (int n = 1; n <= 2; n++) {
      this.instances.add(start(n));
    }
    try (Producer<String, String> producer =
        new KafkaProducer<>(
            KafkaTestUtils.producerProps(this.broker),
            new StringSerializer(),
            new StringSerializer())) {
      for (int i = 0; i < KEYS * 3; i++) {
        producer.send(new ProducerRecord<>(TOPIC, "page-" + (i % KEYS), "{\"page\":\"p\"}"));
      }
    }
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () -> {
              for (int i = 0; i < KEYS; i++) {
                assertThat(get(port(0), "page-" + i, "").body()).contains("\"value\":3");
              }
            });
  }

  @AfterAll
  void stopEverything() {
    this.instances.forEach(ConfigurableApplicationContext::close);
    if (this.broker != null) {
      this.broker.destroy();
    }
  }

  @Test
  @Order(1)
  void reportsLiveOffsetsOfEveryActiveAndStandbyPartitionFromKafkaStreamsOwnLagReports() {
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () -> {
              for (ConfigurableApplicationContext instance : this.instances) {
                List<PartitionLag> lags = instance.getBean(RestoreLagTracker.class).snapshot();
                assertThat(lags).hasSize(4);
                assertThat(lags)
                    .allSatisfy(
                        (lag) -> {
                          assertThat(lag.lagKnown()).as(lag.toString()).isTrue();
                          assertThat(lag.endOffset()).as(lag.toString()).isPositive();
                          assertThat(lag.currentOffset()).as(lag.toString()).isPositive();
                        });
                assertThat(lags.stream().filter(PartitionLag::isActive))
                    .as("restored from empty changelogs, then kept live by the lag reports")
                    .hasSize(2)
                    .allSatisfy(
                        (lag) -> assertThat(lag.currentOffset()).isEqualTo(lag.endOffset()));
              }
            });
  }

  @Test
  @Order(2)
  void answersFromTheStandbyWhenTheOwnerIsUnreachableAndStaleReadsAreAllowed() {
    String servedBySecond = "localhost:" + port(1);
    String keyOwnedBySecond =
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> keyServedBy(servedBySecond), key -> key != null);
    ((WebServerApplicationContext) this.instances.get(1)).getWebServer().stop();
    HttpProbe.Answer refused = get(port(0), keyOwnedBySecond, "");
    assertThat(refused.status()).isEqualTo(503);
    assertThat(refused.headers().getFirst("Retry-After")).isNotNull();
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              HttpProbe.Answer stale =
                  get(port(0), keyOwnedBySecond, "?allowStale=true&maxLag=1000");
              assertThat(stale.status()).isEqualTo(200);
              assertThat(stale.body()).contains("\"value\":3");
              assertThat(stale.header("Matview-Replica")).isEqualTo("standby");
              assertThat(stale.header("Matview-Served-By")).isEqualTo("localhost:" + port(0));
              assertThat(Long.parseLong(stale.header("Matview-Offset-Lag"))).isBetween(0L, 1000L);
            });
  }

  private String keyServedBy(String instance) {
    for (int i = 0; i < KEYS; i++) {
      HttpProbe.Answer answer = get(port(0), "page-" + i, "");
      if (answer.header("Matview-Served-By").equals(instance)) {
        return "page-" + i;
      }
    }
    return null;
  }

  private ConfigurableApplicationContext start(int n) {
    return new SpringApplicationBuilder(StandbyApp.class)
        .run(
            "--spring.main.banner-mode=off",
            "--server.port=0",
            "--spring.kafka.bootstrap-servers=" + this.broker.getBrokersAsString(),
            "--spring.kafka.streams.application-id=standby-it",
            "--spring.kafka.streams.state-dir=" + stateDirs.resolve("instance-" + n),
            "--spring.kafka.streams.properties.commit.interval.ms=100",
            "--spring.kafka.admin.auto-create=true",
            "--matview.standby-replicas=1",
            "--matview.advertised-host=localhost",
            "--matview.forwarding.timeout=1s");
  }

  private int port(int index) {
    return ((WebServerApplicationContext) this.instances.get(index)).getWebServer().getPort();
  }

  private HttpProbe.Answer get(int port, String key, String query) {
    return HttpProbe.localhost(port).get("/views/visits-per-page/keys/" + key + query);
  }

  record Visit(String page) {}

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class StandbyApp {

    @MaterializedView("visits-per-page")
    ViewDefinition<String, Visit, Long> visitsPerPage() {
      return Views.from(TOPIC, Visit.class).count();
    }
  }
}
