package dev.matview.jetty;

import static dev.matview.jetty.MatviewOnJettyIntegrationTests.PER_MINUTE;
import static dev.matview.jetty.MatviewOnJettyIntegrationTests.VIEW;
import static dev.matview.processes.http.HttpProbe.encode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.jetty.MatviewOnJettyIntegrationTests.Item;
import dev.matview.processes.http.HttpProbe;
import dev.matview.processes.http.ServerSentEventReader;
import dev.matview.test.MatviewIntegrationTest;
import dev.matview.test.MatviewTestPublisher;
import dev.matview.test.ViewAwaiter;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * On Jetty, every key a view accepts is read over real HTTP on every endpoint of a key: with the
 * key in the query always, in the path with its slashes encoded ({@code %2F}), which Jetty refuses
 * unless Matview lets it through; only a dot segment or a backslash, which Jetty refuses in any
 * path, needs the query. Same application and properties as {@link MatviewOnJettyIntegrationTests},
 * so the two share one context and its broker.
 */
@MatviewIntegrationTest(
    classes = MatviewOnJettyIntegrationTests.App.class,
    properties = {
      "spring.kafka.streams.application-id=jetty-it",
      "matview.advertised-host=localhost",
      "matview.rocksdb.total-memory=16MB"
    })
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EveryKeyOnJettyIntegrationTests {

  private static final List<String> PATH_KEYS = List.of("sl/ash", "/", "ü/x", "a%2Fb", "a b");

  private static final List<String> QUERY_ONLY_KEYS = List.of("..", ".", "b\\s");

  private final JsonMapper json = JsonMapper.builder().build();

  @LocalServerPort int port;

  @Autowired MatviewTestPublisher publisher;

  @Autowired ViewAwaiter views;

  private HttpProbe http;

  @BeforeAll
  void publishOneItemPerKey() {
    this.http = HttpProbe.localhost(this.port).withTimeout(Duration.ofSeconds(20));
    for (String key : keys()) {
      this.publisher.publish("items", key, new Item(1));
    }
    for (String key : keys()) {
      this.views.awaitView(VIEW, key, 1L);
      this.views.awaitWindows(
          PER_MINUTE, key, Long.class, (windows) -> assertThat(windows).hasSize(1));
    }
  }

  @Test
  void readsEveryKeyWithTheKeyInTheQueryAndInThePathWhenAPathCarriesIt() {
    for (String key : keys()) {
      assertValue(this.http.get("/views/" + VIEW + "/key?key=" + encode(key)), key);
    }
    for (String key : PATH_KEYS) {
      assertValue(this.http.get("/views/" + VIEW + "/keys/" + encode(key)), key);
    }
  }

  @Test
  void readsEveryKeysWindowsWithTheKeyInTheQueryAndInThePathWhenAPathCarriesIt() {
    for (String key : keys()) {
      assertOneWindow(this.http.get("/views/" + PER_MINUTE + "/key/windows?key=" + encode(key)));
    }
    for (String key : PATH_KEYS) {
      assertOneWindow(this.http.get("/views/" + PER_MINUTE + "/keys/" + encode(key) + "/windows"));
    }
  }

  @Test
  void streamsTheChangesOfAKeyWithTheKeyInTheQueryOrItsSlashEncodedInThePath() throws Exception {
    assertFirstValue("/views/" + VIEW + "/key/changes?key=" + encode(".."), "..");
    assertFirstValue("/views/" + VIEW + "/keys/" + encode("ü/x") + "/changes", "ü/x");
  }

  private List<String> keys() {
    return Stream.concat(PATH_KEYS.stream(), QUERY_ONLY_KEYS.stream()).toList();
  }

  private void assertValue(HttpProbe.Answer answer, String key) {
    assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
    JsonNode body = this.json.readTree(answer.body());
    assertThat(body.path("key").asString()).isEqualTo(key);
    assertThat(body.path("value").asLong()).isEqualTo(1);
  }

  private void assertOneWindow(HttpProbe.Answer answer) {
    assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
    JsonNode windows = this.json.readTree(answer.body()).path("windows");
    assertThat(windows).as(answer.describe()).hasSize(1);
    assertThat(windows.get(0).path("value").asLong()).isEqualTo(1);
  }

  private void assertFirstValue(String target, String key) throws Exception {
    try (ServerSentEventReader stream = this.http.events(target)) {
      JsonNode event = this.json.readTree(stream.next(Duration.ofSeconds(30)).data());
      assertThat(event.path("key").asString()).as(target).isEqualTo(key);
      assertThat(event.path("value").asLong()).as(target).isEqualTo(1);
    }
  }
}
