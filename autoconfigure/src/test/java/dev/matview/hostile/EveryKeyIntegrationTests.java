package dev.matview.hostile;

import static dev.matview.hostile.HostileCluster.KEYS;
import static dev.matview.hostile.HostileCluster.PATH_KEYS;
import static dev.matview.hostile.HostileCluster.PER_ITEM;
import static dev.matview.hostile.HostileCluster.PER_MINUTE;
import static dev.matview.hostile.HostileCluster.T0;
import static dev.matview.hostile.HostileCluster.countOf;
import static dev.matview.hostile.HostileCluster.keyPath;
import static dev.matview.hostile.HostileCluster.queryPath;
import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.processes.http.HttpProbe;
import dev.matview.processes.http.ServerSentEventReader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every key a view accepts ({@code /}, {@code \}, {@code ..}, an escape written as text, unicode
 * beside a slash) is read over real HTTP on Tomcat on every endpoint of a key, from both instances
 * of a cluster on a real broker, so that each key is read both where its partition lives and
 * through the other instance: with the key in the query always, in the path whenever a path can
 * carry it (an encoded slash, {@code %2F}, included), and in a batch, of values or of windows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EveryKeyIntegrationTests {

  private static final String RANGE = "from=" + T0 + "&to=" + T0.plus(Duration.ofHours(1));

  private static final Duration EVENT_WAIT = Duration.ofSeconds(30);

  @TempDir static Path stateDirs;

  private final JsonMapper mapper = JsonMapper.builder().build();

  private HostileCluster cluster;

  @BeforeAll
  void startTwoInstances() {
    this.cluster = new HostileCluster(stateDirs);
  }

  @AfterAll
  void stopEverything() {
    if (this.cluster != null) {
      this.cluster.close();
    }
  }

  @Test
  void readsEveryKeysValueFromBothInstancesWithTheKeyInTheQuery() {
    for (HttpProbe http : probes()) {
      Set<String> servedBy = new HashSet<>();
      for (String key : KEYS) {
        HttpProbe.Answer answer = http.get(queryPath(PER_ITEM, key));
        assertValue(answer, key);
        servedBy.add(answer.header("Matview-Served-By"));
      }
      assertThat(servedBy).as("instances that answered").hasSize(2);
    }
  }

  @Test
  void readsEveryKeyAPathCarriesWithTheKeyInThePathItsSlashesEncoded() {
    assertThat(PATH_KEYS).contains("sl/ash", "/", "ü/x", "a%2Fb");
    for (HttpProbe http : probes()) {
      for (String key : PATH_KEYS) {
        assertValue(http.get(keyPath(PER_ITEM, key)), key);
      }
    }
  }

  @Test
  void readsEveryKeysWindowsWithTheKeyInTheQueryOrInThePath() {
    for (HttpProbe http : probes()) {
      for (String key : KEYS) {
        assertWindow(http.get(queryPath(PER_MINUTE, "/windows", key) + "&" + RANGE), key);
      }
      for (String key : PATH_KEYS) {
        assertWindow(http.get(keyPath(PER_MINUTE, key) + "/windows?" + RANGE), key);
      }
    }
  }

  @Test
  void readsEveryKeysValueAndWindowsInOneBatchFromBothInstancesInTheOrderAsked() {
    Map<String, List<String>> body = Map.of("keys", KEYS);
    for (HttpProbe http : probes()) {
      JsonNode values = batchItems(http.post("/views/" + PER_ITEM + "/batch", body));
      JsonNode windows = batchItems(http.post("/views/" + PER_MINUTE + "/batch?" + RANGE, body));
      for (int i = 0; i < KEYS.size(); i++) {
        String key = KEYS.get(i);
        assertThat(values.get(i).path("key").asString()).isEqualTo(key);
        assertThat(values.get(i).path("value").asLong()).isEqualTo(countOf(key));
        assertWindow(windows.get(i), key);
      }
      String before = "from=" + T0.minus(Duration.ofHours(1)) + "&to=" + T0.minusSeconds(1);
      JsonNode none = batchItems(http.post("/views/" + PER_MINUTE + "/batch?" + before, body));
      for (int i = 0; i < KEYS.size(); i++) {
        assertThat(none.get(i).path("key").asString()).isEqualTo(KEYS.get(i));
        assertThat(none.get(i).path("windows")).isEmpty();
      }
    }
  }

  @Test
  void streamsTheChangesOfKeysWithASlashOrADotSegmentFromBothInstances() throws Exception {
    for (HttpProbe http : probes()) {
      for (String key : List.of("ü/x", "..", "/", "b\\s")) {
        assertFirstChange(http, queryPath(PER_ITEM, "/changes", key), key);
      }
      assertFirstChange(http, keyPath(PER_ITEM, "ü/x") + "/changes", "ü/x");
    }
  }

  @Test
  void boundsAScanByAKeyThatIsASlash() {
    for (HttpProbe http : probes()) {
      String slash = HttpProbe.encode("/");
      HttpProbe.Answer page =
          http.get("/views/" + PER_ITEM + "/keys?from=" + slash + "&to=" + slash);
      assertThat(page.status()).as(page.describe()).isEqualTo(200);
      JsonNode items = json(page.body()).path("items");
      assertThat(items).hasSize(1);
      assertThat(items.get(0).path("key").asString()).isEqualTo("/");
      assertThat(items.get(0).path("value").asLong()).isEqualTo(countOf("/"));
    }
  }

  private void assertValue(HttpProbe.Answer answer, String key) {
    assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
    JsonNode body = json(answer.body());
    assertThat(body.path("key").asString()).isEqualTo(key);
    assertThat(body.path("value").asLong()).isEqualTo(countOf(key));
  }

  private void assertWindow(HttpProbe.Answer answer, String key) {
    assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
    assertWindow(json(answer.body()), key);
  }

  /** Each key's records lie in the window of minute {@code index} after {@code T0}. */
  private void assertWindow(JsonNode body, String key) {
    assertThat(body.path("key").asString()).isEqualTo(key);
    assertThat(body.path("windows")).as(body.toString()).hasSize(1);
    JsonNode window = body.path("windows").get(0);
    Instant start = T0.plus(Duration.ofMinutes(KEYS.indexOf(key)));
    assertThat(Instant.parse(window.path("start").asString())).isEqualTo(start);
    assertThat(window.path("value").asLong()).isEqualTo(countOf(key));
  }

  private JsonNode batchItems(HttpProbe.Answer answer) {
    assertThat(answer.status()).as(answer.describe()).isEqualTo(200);
    JsonNode items = json(answer.body()).path("items");
    assertThat(items).hasSize(KEYS.size());
    return items;
  }

  private void assertFirstChange(HttpProbe http, String target, String key) throws Exception {
    try (ServerSentEventReader stream = http.events(target)) {
      assertThat(stream.status()).as(target).isEqualTo(200);
      JsonNode event = json(stream.next(EVENT_WAIT).data());
      assertThat(event.path("key").asString()).as(target).isEqualTo(key);
      assertThat(event.path("value").asLong()).as(target).isEqualTo(countOf(key));
    }
  }

  private List<HttpProbe> probes() {
    return this.cluster.ports().stream()
        .map(port -> HttpProbe.localhost(port).withTimeout(Duration.ofSeconds(20)))
        .toList();
  }

  private JsonNode json(String body) {
    return this.mapper.readTree(body);
  }
}
