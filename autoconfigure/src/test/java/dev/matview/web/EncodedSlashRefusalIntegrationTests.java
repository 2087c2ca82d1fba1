package dev.matview.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.processes.http.HttpProbe;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.test.context.EmbeddedKafka;

/**
 * With {@code matview.web.encoded-slashes=false} Tomcat refuses an encoded slash in a path again,
 * before any servlet: the refusal is a problem detail that names the property and the query form,
 * and the query form still reaches Matview with the same key.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
      "spring.kafka.streams.application-id=encoded-slash-it",
      "spring.kafka.streams.auto-startup=false",
      "spring.kafka.streams.state-dir=${java.io.tmpdir}/matview-encoded-slash-it-${random.uuid}",
      "matview.advertised-host=localhost",
      "matview.web.encoded-slashes=false"
    })
@EmbeddedKafka(partitions = 1, topics = EncodedSlashRefusalIntegrationTests.TOPIC)
class EncodedSlashRefusalIntegrationTests {

  static final String TOPIC = "pages";

  @LocalServerPort int port;

  @Test
  void refusesAnEncodedSlashInThePathNamingTheQueryFormWhichStillReachesTheView() {
    HttpProbe http = HttpProbe.localhost(this.port);
    HttpProbe.Answer refused = http.get("/views/per-page/keys/a%2Fb");
    assertThat(refused.status()).as(refused.describe()).isEqualTo(400);
    assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
    assertThat(refused.json().path("type").asString()).endsWith("/invalid-request");
    assertThat(refused.json().path("detail").asString())
        .contains("matview.web.encoded-slashes", ".../key?key=");
    HttpProbe.Answer elsewhere = http.get("/other/a%2Fb");
    assertThat(elsewhere.status()).isEqualTo(400);
    assertThat(elsewhere.json().path("type").asString()).isEqualTo("about:blank");
    HttpProbe.Answer inTheQuery = http.get("/views/per-page/key?key=a%2Fb");
    assertThat(inTheQuery.status()).as(inTheQuery.describe()).isEqualTo(503);
    assertThat(inTheQuery.json().path("key").asString()).isEqualTo("a/b");
  }

  record Visit(String page) {}

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class PageViews {

    @MaterializedView("per-page")
    ViewDefinition<String, Visit, Long> perPage() {
      return Views.from(TOPIC, Visit.class).count();
    }
  }
}
