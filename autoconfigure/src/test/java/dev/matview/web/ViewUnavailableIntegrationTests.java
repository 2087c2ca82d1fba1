package dev.matview.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.processes.http.HttpProbe;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.test.context.EmbeddedKafka;

/** Until Kafka Streams runs, lookups get 503 with Retry-After, never a 500; then they answer. */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
      "spring.kafka.streams.application-id=unavailable-it",
      "spring.kafka.streams.auto-startup=false",
      "spring.kafka.streams.state-dir=${java.io.tmpdir}/matview-unavailable-it-${random.uuid}",
      "spring.kafka.streams.cleanup.on-shutdown=true",
      "matview.advertised-host=localhost"
    })
@EmbeddedKafka(partitions = 2, topics = ViewUnavailableIntegrationTests.TOPIC)
class ViewUnavailableIntegrationTests {

  static final String TOPIC = "visits";

  @LocalServerPort int port;

  @Autowired StreamsBuilderFactoryBean streams;

  @Test
  void answersServiceUnavailableWithRetryAfterUntilStreamsRunsThenAnswers() {
    HttpProbe http = HttpProbe.localhost(this.port);
    HttpProbe.Answer unavailable = http.get("/views/visits-per-page/keys/home");
    assertThat(unavailable.status()).isEqualTo(503);
    assertThat(unavailable.header("Retry-After")).isEqualTo("1");
    assertThat(unavailable.header("Content-Type")).startsWith("application/problem+json");
    assertThat(unavailable.json().path("view").asString()).isEqualTo("visits-per-page");
    assertThat(unavailable.json().path("retryAfterSeconds").asInt()).isEqualTo(1);
    assertThat(unavailable.json().path("detail").asString()).contains("not started");
    this.streams.start();
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> assertThat(http.get("/views/visits-per-page/keys/home").status()).isEqualTo(404));
  }

  record Visit(String page) {}

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class VisitViews {

    @MaterializedView("visits-per-page")
    ViewDefinition<String, Visit, Long> visitsPerPage() {
      return Views.from(TOPIC, Visit.class).count();
    }
  }
}
