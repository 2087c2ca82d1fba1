package dev.matview.jetty;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.processes.http.HttpProbe;
import dev.matview.processes.http.RawHttp;
import dev.matview.processes.http.ServerSentEventReader;
import dev.matview.test.MatviewIntegrationTest;
import dev.matview.test.MatviewTestClient;
import dev.matview.test.MatviewTestPublisher;
import dev.matview.test.ViewAwaiter;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.jetty.JettyWebServer;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Matview on Jetty, the starter's Tomcat swapped for Spring Boot's Jetty starter as a user would:
 * lookups and change streams answer as on Tomcat, open streams hold no thread, and the errors Jetty
 * answers itself, before any servlet, are problem details like every other error.
 */
@MatviewIntegrationTest(
    classes = MatviewOnJettyIntegrationTests.App.class,
    properties = {
      "spring.kafka.streams.application-id=jetty-it",
      "matview.advertised-host=localhost",
      "matview.rocksdb.total-memory=16MB"
    })
class MatviewOnJettyIntegrationTests {

  static final String VIEW = "per-item";

  static final String PER_MINUTE = "per-item-per-minute";

  private static final Duration EVENT_WAIT = Duration.ofSeconds(30);

  private final JsonMapper json = JsonMapper.builder().build();

  @LocalServerPort int port;

  @Autowired MatviewTestPublisher publisher;

  @Autowired ViewAwaiter views;

  @Autowired MatviewTestClient client;

  @Autowired WebServerApplicationContext context;

  private HttpProbe http;

  @BeforeEach
  void probe() {
    this.http = HttpProbe.localhost(this.port).withTimeout(Duration.ofSeconds(20));
  }

  @Test
  void runsOnJetty() {
    assertThat(this.context.getWebServer()).isInstanceOf(JettyWebServer.class);
  }

  @Test
  void answersLookupsAndStreamsAKeysChanges() throws Exception {
    this.publisher.publish("items", "streamed", new Item(1));
    this.views.awaitView(VIEW, "streamed", 1L);
    assertThat(this.client.view(VIEW, String.class, Long.class).get("streamed").body())
        .contains(1L);
    try (ServerSentEventReader stream = this.http.events(changesOf("streamed"))) {
      assertThat(valueOf(stream)).isEqualTo(1);
      this.publisher.publish("items", "streamed", new Item(2));
      assertThat(valueOf(stream)).isEqualTo(2);
    }
  }

  @Test
  void holdsNoThreadForAnOpenStream() throws Exception {
    this.publisher.publish("items", "idle", new Item(1));
    this.views.awaitView(VIEW, "idle", 1L);
    ThreadPool threads = ((JettyWebServer) this.context.getWebServer()).getServer().getThreadPool();
    List<ServerSentEventReader> streams = new ArrayList<>();
    try {
      for (int i = 0; i < 200; i++) {
        ServerSentEventReader stream = this.http.events(changesOf("idle"));
        streams.add(stream);
        assertThat(valueOf(stream)).isEqualTo(1);
      }
      assertThat(threads.getThreads() - threads.getIdleThreads())
          .as("Jetty's busy threads with 200 streams open")
          .isLessThan(20);
    } finally {
      streams.forEach(ServerSentEventReader::close);
    }
  }

  @Test
  void streamsAScanWholeInOneResponse() throws Exception {
    for (String key : List.of("scanned-1", "scanned-2", "scanned-3")) {
      this.publisher.publish("items", key, new Item(1));
      this.views.awaitView(VIEW, key, 1L);
    }
    HttpProbe.Answer response =
        this.http.get("/views/" + VIEW + "/keys", "Accept", "application/x-ndjson");
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    assertThat(response.header("Content-Type")).startsWith("application/x-ndjson");
    List<String> lines = List.of(response.body().split("\n"));
    assertThat(lines.get(lines.size() - 1)).isEqualTo("{\"nextCursor\":null}");
    Map<String, Long> counts = new HashMap<>();
    for (String line : lines.subList(0, lines.size() - 1)) {
      JsonNode item = this.json.readTree(line);
      counts.put(item.path("key").asString(), item.path("value").asLong());
    }
    assertThat(counts)
        .containsEntry("scanned-1", 1L)
        .containsEntry("scanned-2", 1L)
        .containsEntry("scanned-3", 1L);
  }

  /**
   * Targets with bytes a URI may not hold go straight onto a socket ({@link RawHttp}), since no
   * client library sends them.
   */
  @Test
  void answersJettysOwnErrorsAsProblemDetails() {
    RawHttp raw = new RawHttp(this.port, Duration.ofSeconds(20));
    assertProblem(rawGet(raw, "/views/per-item/keys/a|b{c}"), 400, "Illegal Path Character");
    assertProblem(rawGet(raw, "/views/per-item/keys/bad%zzescape"), 400, "percent-encoded");
    assertProblem(this.http.get("/views/per-item/keys/%2E%2E"), 400, ".../key?key=");
    assertProblem(this.http.get("/views/per-item/keys/%ff%fe"), 400, "UTF-8");
    assertProblem(
        rawGet(raw, "/views/per-item/windows?to=%zz"), 400, "percent-encode its parameters");
    assertProblem(this.http.get("/views", "X-Filler", "x".repeat(20_000)), 431, "Header Fields");
    assertProblem(
        this.http.send("TRACE", "/views/per-item/keys/alpha", null), 405, "TRACE is not allowed");
  }

  @Test
  void answersSpringsOwnErrorsAsProblemDetailsOfATypeThatIsAUri() {
    HttpProbe.Answer unknownPath = this.http.get("/views/per-item/nothing/here");
    assertProblem(unknownPath, 404, "No static resource");
    assertThat(unknownPath.json().path("type").asString()).isEqualTo("about:blank");
    assertProblem(this.http.send("DELETE", "/views/per-item/keys/alpha", null), 405, "DELETE");
  }

  private static String changesOf(String key) {
    return "/views/" + VIEW + "/keys/" + key + "/changes";
  }

  private long valueOf(ServerSentEventReader stream) throws InterruptedException {
    return this.json.readTree(stream.next(EVENT_WAIT).data()).path("value").asLong();
  }

  private static RawHttp.Answer rawGet(RawHttp raw, String target) {
    return raw.send("GET", target, Map.of(), new byte[0]);
  }

  private void assertProblem(RawHttp.Answer answer, int status, String detailPart) {
    assertThat(answer.failure()).as("the exchange failed").isNull();
    assertProblem(
        answer.status(), answer.header("Content-Type"), answer.text(), status, detailPart);
  }

  private void assertProblem(HttpProbe.Answer answer, int status, String detailPart) {
    assertProblem(
        answer.status(), answer.header("Content-Type"), answer.body(), status, detailPart);
  }

  private void assertProblem(
      int answered, String contentType, String body, int status, String detailPart) {
    assertThat(answered).as(body).isEqualTo(status);
    assertThat(contentType).startsWith("application/problem+json");
    JsonNode problem = this.json.readTree(body);
    assertThat(problem.path("status").asInt()).isEqualTo(status);
    assertThat(problem.path("title").asString()).isNotBlank();
    assertThat(problem.path("detail").asString()).contains(detailPart).doesNotContain("\tat ");
  }

  record Item(long quantity) {}

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {

    @MaterializedView(VIEW)
    ViewDefinition<String, Item, Long> perItem() {
      return Views.from("items", Item.class).count();
    }

    @MaterializedView(PER_MINUTE)
    ViewDefinition<String, Item, Long> perItemPerMinute() {
      return Views.from("items", Item.class)
          .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)))
          .count();
    }
  }
}
