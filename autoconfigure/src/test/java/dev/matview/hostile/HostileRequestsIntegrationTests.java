package dev.matview.hostile;

import static dev.matview.hostile.HostileCluster.PER_ITEM;
import static dev.matview.hostile.HostileCluster.PER_MINUTE;
import static dev.matview.hostile.HostileCluster.keyPath;
import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.processes.http.HttpProbe;
import dev.matview.processes.http.RawHttp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Requests a hostile or careless caller sends, over real HTTP to two instances on a real broker:
 * each gets the problem detail the API promises, with the status that says what was wrong, and none
 * takes the server down or reads more than the limits allow.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileRequestsIntegrationTests {

  private static final Map<String, String> JSON_BODY = Map.of("Content-Type", "application/json");

  private static final String NDJSON = "application/x-ndjson";

  @TempDir static Path stateDirs;

  private final JsonMapper mapper = JsonMapper.builder().build();

  private HostileCluster cluster;

  private HttpProbe http;

  /**
   * Requests no client library sends: a target with bytes a URI may not hold, and bodies over the
   * limit that the server answers before it has read them.
   */
  private RawHttp raw;

  @BeforeAll
  void startTwoInstances() {
    this.cluster = new HostileCluster(stateDirs);
    this.http =
        HttpProbe.localhost(this.cluster.ports().get(0)).withTimeout(Duration.ofSeconds(20));
    this.raw = new RawHttp(this.cluster.ports().get(0), Duration.ofSeconds(20));
  }

  @AfterAll
  void stopEverything() {
    if (this.cluster != null) {
      this.cluster.close();
    }
  }

  @Test
  void keepsASemicolonAndWhatFollowsItAsPartOfTheKey() {
    for (String target : List.of("/views/per-item/keys/a;b", "/views/per-item/keys/a%3Bb")) {
      HttpProbe.Answer answer = get(target);
      assertThat(answer.status()).as(target).isEqualTo(200);
      assertThat(json(answer).path("key").asString()).isEqualTo("a;b");
      assertThat(json(answer).path("value").asLong()).isEqualTo(2);
    }
    HttpProbe.Answer plusIsNotASpace = get("/views/per-item/keys/a+b");
    assertThat(json(plusIsNotASpace).path("key").asString()).isEqualTo("a+b");
  }

  @Test
  void refusesInstantsThatKafkaCannotStoreNamingTheParameterAndTheRange() {
    String farFuture = "%2B999999999-12-31T23:59:59Z";
    HttpProbe.Answer lookup = get("/views/per-minute/keys/alpha/windows?to=" + farFuture);
    assertProblem(lookup, 400);
    assertThat(json(lookup).path("parameter").asString()).isEqualTo("to");
    assertThat(json(lookup).path("detail").asString())
        .contains("1970-01-01T00:00:00Z")
        .contains("+292278994-08-17T07:12:55.807Z")
        .doesNotContain("\tat ");
    HttpProbe.Answer beforeEpoch =
        get("/views/per-minute/keys/alpha/windows?from=1969-12-31T23:59:59Z");
    assertProblem(beforeEpoch, 400);
    assertThat(json(beforeEpoch).path("parameter").asString()).isEqualTo("from");
    HttpProbe.Answer scan = get("/views/per-minute/windows?to=" + farFuture);
    assertProblem(scan, 400);
    assertThat(json(scan).path("parameter").asString()).isEqualTo("to");
  }

  @Test
  void answersTheWholeStorableRangeWithoutOverflow() {
    HttpProbe.Answer scan =
        get("/views/per-minute/windows?from=1970-01-01T00:00:00Z&to=9999-12-31T23:59:59Z");
    assertThat(scan.status()).as(scan.describe()).isEqualTo(200);
    assertThat(json(scan).path("items")).hasSize(HostileCluster.KEYS.size());
    String local = "localhost:" + this.cluster.ports().get(0);
    String latest = "%2B292278994-08-17T07:12:55.807Z";
    List<HttpProbe.Answer> localLookups =
        HostileCluster.PATH_KEYS.stream()
            .map(
                key ->
                    this.get(
                        keyPath(PER_MINUTE, key)
                            + "/windows?from=1970-01-01T00:00:00Z&to="
                            + latest))
            .filter(answer -> answer.header("Matview-Served-By").equals(local))
            .toList();
    assertThat(localLookups).isNotEmpty();
    for (HttpProbe.Answer lookup : localLookups) {
      assertThat(lookup.status()).as(lookup.describe()).isEqualTo(200);
      assertThat(json(lookup).path("windows")).hasSize(1);
    }
    HttpProbe.Answer nearTheEpoch =
        get("/views/per-minute/keys/alpha/windows?to=1970-01-01T00:00:01Z");
    assertThat(nearTheEpoch.status()).as(nearTheEpoch.describe()).isEqualTo(200);
    assertThat(json(nearTheEpoch).path("windows")).isEmpty();
  }

  @Test
  void refusesBatchBodiesOverTheLimitUnreadAndStaysResponsive() {
    byte[] body = batchBody(5 * 1024 * 1024);
    List<CompletableFuture<RawHttp.Answer>> answers =
        IntStream.range(0, 4)
            .mapToObj(
                n ->
                    CompletableFuture.supplyAsync(
                        () ->
                            this.raw.send(
                                "POST", "/views/per-item/batch", JSON_BODY, body, n % 2 == 1)))
            .toList();
    for (CompletableFuture<RawHttp.Answer> answer : answers) {
      RawHttp.Answer tooLarge = answer.join();
      assertProblem(tooLarge, 413);
      assertThat(json(tooLarge.text()).path("detail").asString())
          .contains("matview.web.max-batch-body");
    }
    long started = System.nanoTime();
    HttpProbe.Answer lookup = get(keyPath(PER_ITEM, "alpha"));
    assertThat(lookup.status()).isEqualTo(200);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
    RawHttp.Answer withinTheLimit =
        this.raw.send(
            "POST",
            "/views/per-item/batch",
            JSON_BODY,
            "{\"keys\": [\"sl/ash\", \"nobody\"]}".getBytes(StandardCharsets.UTF_8),
            true);
    assertThat(withinTheLimit.status()).as(withinTheLimit.text()).isEqualTo(200);
    assertThat(json(withinTheLimit.text()).path("items").get(0).path("value").asLong())
        .isEqualTo(7);
  }

  @Test
  void refusesKeysOverTheLengthLimit() {
    String longKey = "k".repeat(1025);
    HttpProbe.Answer inPath = get("/views/per-item/keys/" + longKey);
    assertProblem(inPath, 414);
    assertThat(json(inPath).path("detail").asString()).contains("matview.web.max-key-length");
    assertThat(get("/views/per-item/keys/" + "k".repeat(1024)).status()).isEqualTo(404);
    HttpProbe.Answer inBatch =
        post("/views/per-item/batch", "{\"keys\": [\"alpha\", \"" + longKey + "\"]}");
    assertProblem(inBatch, 400);
    assertThat(json(inBatch).path("detail").asString()).contains("Key 1 of the batch");
    String tooMany = IntStream.range(0, 1001).mapToObj(n -> "\"k" + n + "\"").toList().toString();
    assertProblem(post("/views/per-item/batch", "{\"keys\": " + tooMany + "}"), 400);
  }

  @Test
  void refusesForgedMalformedOversizedAndOutOfRangeBoundsOnEveryReadWith400() {
    String token = get("/views/per-item/keys/alpha").header("Matview-Position");
    assertThat(token).isNotBlank();
    int middle = token.length() / 2;
    String forged =
        token.substring(0, middle)
            + (token.charAt(middle) == 'A' ? 'B' : 'A')
            + token.substring(middle + 1);
    List<String> bounds =
        List.of(
            "position=" + forged,
            "position=" + token.substring(0, 4),
            "position=%00%FF",
            "position=" + "A".repeat(7_000),
            "after=items",
            "after=items:-1:0",
            "after=items:0:99999999999999999999",
            "after=items:9999:0",
            "after=items:0:999999999",
            "after=other-topic:0:0");
    for (String bound : bounds) {
      for (String target :
          List.of(
              "/views/per-item/keys/alpha?" + bound,
              "/views/per-item/keys?limit=5&" + bound,
              "/views/per-minute/keys/alpha/windows?" + bound,
              "/views/per-minute/windows?limit=5&" + bound)) {
        assertProblem(get(target), 400);
      }
      assertProblem(post("/views/per-item/batch?" + bound, "{\"keys\": [\"alpha\"]}"), 400);
    }
    assertProblem(this.http.get("/views/per-item/keys/alpha", "Matview-Position", forged), 400);
  }

  @Test
  void refusesChangeStreamsOfBadIdsLongKeysAndUnknownViewsWithProblems() {
    for (String id :
        List.of("garbage", "x.y", "A".repeat(5_000) + ".0", ".0", "token.99999999999")) {
      assertProblem(this.http.get("/views/per-item/keys/alpha/changes", "Last-Event-ID", id), 400);
    }
    assertProblem(get("/views/per-item/keys/" + "k".repeat(1025) + "/changes"), 414);
    assertProblem(get("/views/no-such-view/keys/alpha/changes"), 404);
    assertProblem(get("/views/no-such-view/changes"), 404);
    for (String accept : List.of(";;;", "application/xml")) {
      for (String path : List.of("/views/per-item/keys/alpha/changes", "/views/nope/changes")) {
        assertProblem(this.http.get(path, "Accept", accept), 406);
      }
    }
  }

  @Test
  void answersAnUnknownViewOnEveryEndpointWithTheViewsNearestItsName() {
    String body = "{\"keys\": [\"alpha\"]}";
    Map<String, HttpProbe.Answer> answers = new LinkedHashMap<>();
    answers.put("lookup", get("/views/per-iten/keys/alpha"));
    answers.put("window lookup", get("/views/per-iten/keys/alpha/windows"));
    answers.put("batch", post("/views/per-iten/batch", body));
    answers.put("scan page", get("/views/per-iten/keys?limit=5"));
    answers.put("streamed scan", this.http.get("/views/per-iten/keys", "Accept", NDJSON));
    answers.put("window scan", get("/views/per-iten/windows?limit=5"));
    answers.put("key changes", get("/views/per-iten/keys/alpha/changes"));
    answers.put("view changes", get("/views/per-iten/changes"));
    answers.forEach(
        (endpoint, answer) -> {
          assertProblem(answer, 404);
          JsonNode problem = json(answer);
          assertThat(problem.path("view").asString()).as(endpoint).isEqualTo("per-iten");
          assertThat(problem.path("nearestViews").valueStream().map(JsonNode::asString))
              .as(endpoint)
              .containsExactly(PER_ITEM, PER_MINUTE, HostileCluster.PER_QUANTITY);
          assertThat(problem.path("detail").asString())
              .as(endpoint)
              .isEqualTo(
                  "There is no view named 'per-iten'; the views are 'per-item', 'per-minute'"
                      + " and 'per-quantity'");
        });
    HttpProbe.Answer huge = get("/views/" + "v".repeat(4_000) + "/keys/alpha");
    assertProblem(huge, 404);
    assertThat(json(huge).path("nearestViews")).hasSize(3);
  }

  @Test
  void refusesALastEventIdWhosePlaceIsNotAWholeNumberFromZeroNamingTheHeader() {
    String token = get("/views/per-item/keys/alpha").header("Matview-Position");
    assertThat(token).isNotBlank();
    // a stream opened by mistake sends nothing until its first heartbeat: the read times out
    HttpProbe quick = this.http.withTimeout(Duration.ofSeconds(5));
    for (String place : List.of("-1", "+1", "-2147483648", "2147483648", "1e3", " 1", "")) {
      HttpProbe.Answer answer =
          quick.get("/views/per-item/keys/alpha/changes", "Last-Event-ID", token + "." + place);
      assertProblem(answer, 400);
      assertThat(json(answer).path("parameter").asString()).as(place).isEqualTo("Last-Event-ID");
    }
  }

  @Test
  void refusesABatchBodyThatNamesAFieldTwiceAnywhereNamingTheBody() {
    for (String body :
        List.of(
            "{\"keys\": [\"alpha\"], \"keys\": [\"sl/ash\"]}",
            "{\"keys\": [\"alpha\"], \"other\": 1, \"other\": 2}",
            "{\"keys\": [{\"id\": 1, \"id\": 2}]}",
            "{\"keys\": [\"alpha\"], \"x\": [{\"a\": {\"b\": 1, \"b\": 1}}]}")) {
      HttpProbe.Answer answer = post("/views/per-item/batch", body);
      assertProblem(answer, 400);
      assertThat(json(answer).path("parameter").asString()).as(body).isEqualTo("body");
      assertThat(json(answer).path("detail").asString()).as(body).contains("Duplicate");
    }
    HttpProbe.Answer once = post("/views/per-item/batch", "{\"keys\": [\"sl/ash\"], \"id\": 1}");
    assertThat(once.status()).as(once.describe()).isEqualTo(200);
    assertThat(json(once).path("items").get(0).path("value").asLong()).isEqualTo(7);
  }

  @Test
  void refusesAKeyScanWhoseFromIsAfterTo() {
    HttpProbe.Answer strings = get("/views/per-item/keys?from=b&to=a");
    assertProblem(strings, 400);
    assertThat(json(strings).path("parameter").asString()).isEqualTo("from");
    assertProblem(get("/views/per-quantity/keys?from=5&to=3"), 400);
    assertThat(get("/views/per-quantity/keys?from=3&to=5").status()).isEqualTo(200);
  }

  @Test
  void refusesWhatAStreamedScanCannotUseWith400NamingTheParameter() {
    Map<String, String> refused = new LinkedHashMap<>();
    refused.put("/views/per-item/keys?limit=5", "limit");
    refused.put("/views/per-item/keys?cursor=" + "A".repeat(7_000), "cursor");
    refused.put("/views/per-item/keys?cursor=" + "A".repeat(40), "cursor");
    refused.put("/views/per-item/keys?from=b&to=c&afterKey=z", "afterKey");
    refused.put("/views/per-item/keys?cursor=abc&afterKey=alpha", "cursor");
    refused.put("/views/per-quantity/keys?afterKey=not-a-number", "afterKey");
    refused.put("/views/per-minute/windows?afterKey=alpha", "afterStart");
    refused.put("/views/per-minute/windows?afterKey=alpha&afterStart=yesterday", "afterStart");
    refused.put(
        "/views/per-minute/windows?afterKey=alpha&afterStart=%2B999999999-12-31T23:59:59Z",
        "afterStart");
    String overLimit = "k".repeat(1025);
    refused.put("/views/per-item/keys?afterKey=" + overLimit, "afterKey");
    refused.put("/views/per-item/keys?from=" + overLimit, "from");
    refused.put("/views/per-item/keys?to=" + overLimit, "to");
    refused.put(
        "/views/per-minute/windows?afterKey=" + overLimit + "&afterStart=2026-01-01T00:00:00Z",
        "afterKey");
    refused.forEach(
        (target, parameter) -> {
          HttpProbe.Answer answer = this.http.get(target, "Accept", NDJSON);
          assertProblem(answer, 400);
          assertThat(json(answer).path("parameter").asString())
              .as(answer.describe())
              .isEqualTo(parameter);
        });
    HttpProbe.Answer onAPage = get("/views/per-item/keys?afterKey=alpha");
    assertProblem(onAPage, 400);
    assertThat(json(onAPage).path("parameter").asString()).isEqualTo("afterKey");
    HttpProbe.Answer boundOnAPage = get("/views/per-item/keys?from=" + "k".repeat(1025));
    assertProblem(boundOnAPage, 400);
    assertThat(json(boundOnAPage).path("parameter").asString()).isEqualTo("from");
    assertThat(json(boundOnAPage).path("detail").asString()).contains("matview.web.max-key-length");
    HttpProbe.Answer atTheLimit =
        this.http.get("/views/per-item/keys?afterKey=" + "k".repeat(1024), "Accept", NDJSON);
    assertThat(atTheLimit.status()).as(atTheLimit.describe()).isEqualTo(200);
  }

  @Test
  void refusesAKeyInTheQueryThatIsMissingGivenTwiceOrTooLongOrOfTheWrongKindOfView() {
    for (String target : List.of("/views/per-item/key", "/views/per-item/key/changes")) {
      HttpProbe.Answer missing = get(target);
      assertProblem(missing, 400);
      assertThat(json(missing).path("parameter").asString()).isEqualTo("key");
      assertThat(json(missing).path("detail").asString()).contains(".../key?key=");
    }
    HttpProbe.Answer twice = get("/views/per-item/key?key=alpha&key=a%2Bb");
    assertProblem(twice, 400);
    assertThat(json(twice).path("detail").asString()).contains("POST .../batch");
    HttpProbe.Answer tooLong = get("/views/per-item/key?key=" + "k".repeat(1025));
    assertProblem(tooLong, 414);
    assertThat(json(tooLong).path("detail").asString()).contains("matview.web.max-key-length");
    assertThat(get("/views/per-item/key?key=" + "k".repeat(1024)).status()).isEqualTo(404);
    assertProblem(get("/views/per-item/key/windows?key=alpha"), 400);
    assertProblem(get("/views/per-minute/key?key=alpha"), 400);
    HttpProbe.Answer plusIsASpace = get("/views/per-item/key?key=a+b");
    assertProblem(plusIsASpace, 404);
    assertThat(json(plusIsASpace).path("key").asString()).isEqualTo("a b");
  }

  @Test
  void refusesABatchRangeOnATableAndABadRangeOrKeyInAWindowedBatch() {
    String keys = "{\"keys\": [\"alpha\", \"sl/ash\"]}";
    HttpProbe.Answer rangeOfATable = post("/views/per-item/batch?from=2026-03-01T10:00:00Z", keys);
    assertProblem(rangeOfATable, 400);
    assertThat(json(rangeOfATable).path("parameter").asString()).isEqualTo("from");
    assertThat(json(rangeOfATable).path("detail").asString()).contains("is a table");
    HttpProbe.Answer backwards =
        post("/views/per-minute/batch?from=2026-03-01T11:00:00Z&to=2026-03-01T10:00:00Z", keys);
    assertProblem(backwards, 400);
    HttpProbe.Answer notAnInstant = post("/views/per-minute/batch?to=yesterday", keys);
    assertProblem(notAnInstant, 400);
    assertThat(json(notAnInstant).path("parameter").asString()).isEqualTo("to");
    HttpProbe.Answer nullKey = post("/views/per-minute/batch", "{\"keys\": [\"alpha\", null]}");
    assertProblem(nullKey, 400);
    assertThat(json(nullKey).path("detail").asString()).contains("Key 1");
    String tooMany =
        IntStream.range(0, 1001)
            .mapToObj(n -> "\"k" + n + "\"")
            .collect(Collectors.joining(",", "{\"keys\": [", "]}"));
    assertProblem(post("/views/per-minute/batch", tooMany), 400);
  }

  @Test
  void refusesRepresentationsOtherThanJsonBeforeForwarding() {
    for (String key : HostileCluster.PATH_KEYS) {
      for (String accept : List.of("text/csv", "application/yaml")) {
        HttpProbe.Answer answer = this.http.get(keyPath(PER_ITEM, key), "Accept", accept);
        assertProblem(answer, 406);
      }
    }
    for (String path :
        List.of(
            "/views",
            "/views/per-item/keys",
            "/views/per-minute/windows",
            "/views/per-minute/keys/alpha/windows")) {
      assertProblem(this.http.get(path, "Accept", "text/csv"), 406);
    }
  }

  @Test
  void refusesBatchBodiesOfOtherMediaTypes() {
    for (String type :
        List.of("*/*", "text/plain", "application/x-www-form-urlencoded", "nonsense")) {
      HttpProbe.Answer answer =
          this.http.post("/views/per-item/batch", "{\"keys\": [\"alpha\"]}", "Content-Type", type);
      assertProblem(answer, 415);
    }
  }

  @Test
  void answersAFormBodyThatCannotBeDecodedOnTheDashboardsPathAsAProblemDetail() {
    HttpProbe.Answer answer =
        this.http.send(
            "PATCH", "/matview", "a=%zz&b=%", "Content-Type", "application/x-www-form-urlencoded");
    assertThat(answer.status()).as(answer.describe()).isBetween(400, 499);
    assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
  }

  @Test
  void answersTheServersOwnErrorsAsProblemDetails() {
    assertProblem(rawGet("/views/per-item/keys/a|b{c}"), 400);
    assertProblem(rawGet("/views/per-item/keys/bad%zzescape"), 400);
    assertProblem(rawGet("/views/per-minute/windows?to=%zz"), 400);
    HttpProbe.Answer backslash = get("/views/per-item/keys/b%5Cs");
    assertProblem(backslash, 400);
    assertThat(json(backslash).path("detail").asString()).contains(".../key?key=");
    HttpProbe.Answer notUtf8 = get("/views/per-item/keys/%ff%fe");
    assertProblem(notUtf8, 400);
    assertThat(json(notUtf8).path("detail").asString()).contains("UTF-8");
    HttpProbe.Answer hugeHeader = this.http.get("/views", "X-Filler", "x".repeat(20_000));
    assertProblem(hugeHeader, 400);
    assertProblem(this.http.send("TRACE", keyPath(PER_ITEM, "alpha"), null), 405);
  }

  @Test
  void answersUnsupportedMethodsAndUnknownPathsAsProblemDetails() {
    HttpProbe.Answer delete = this.http.send("DELETE", keyPath(PER_ITEM, "alpha"), null);
    assertProblem(delete, 405);
    assertThat(delete.header("Allow")).contains("GET");
    assertProblem(get("/views/per-item/nothing/here"), 404);
    assertProblem(get("/views/per-item/keys/alpha/windows/more"), 404);
  }

  private HttpProbe.Answer get(String target) {
    return this.http.get(target);
  }

  private HttpProbe.Answer post(String target, String json) {
    return this.http.post(target, json);
  }

  /** {@code GET target} with the target's bytes as they are, which a URI may not hold. */
  private RawHttp.Answer rawGet(String target) {
    return this.raw.send("GET", target, Map.of(), new byte[0]);
  }

  private JsonNode json(HttpProbe.Answer answer) {
    return json(answer.body());
  }

  private JsonNode json(String body) {
    return this.mapper.readTree(body);
  }

  private void assertProblem(RawHttp.Answer answer, int status) {
    assertThat(answer.failure()).as("the exchange failed").isNull();
    assertProblem(answer.status(), answer.header("Content-Type"), answer.text(), status);
  }

  /** An exchange that failed throws, so that only its answer is left to check. */
  private void assertProblem(HttpProbe.Answer answer, int status) {
    assertProblem(answer.status(), answer.header("Content-Type"), answer.body(), status);
  }

  private void assertProblem(int answered, String contentType, String body, int status) {
    assertThat(answered).as(body).isEqualTo(status);
    assertThat(contentType).startsWith("application/problem+json");
    JsonNode problem = json(body);
    assertThat(problem.path("status").asInt()).isEqualTo(status);
    assertThat(problem.path("type").isString()).isTrue();
    assertThat(problem.path("title").isString()).isTrue();
    assertThat(problem.path("detail").asString()).isNotBlank().doesNotContain("\tat ");
  }

  private static byte[] batchBody(int size) {
    StringBuilder body = new StringBuilder(size + 32).append("{\"keys\": [");
    while (body.length() < size) {
      body.append("\"key-").append(body.length()).append("\", ");
    }
    return body.append("\"last\"]}").toString().getBytes(StandardCharsets.UTF_8);
  }
}
