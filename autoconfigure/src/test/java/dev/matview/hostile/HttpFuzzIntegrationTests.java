package dev.matview.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.peer.PeerRequests;
import dev.matview.peer.PeerRequests.Outcome;
import dev.matview.processes.http.RawHttp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A few thousand generated requests over every endpoint of two instances on a real broker: each
 * answer is a problem detail or the right 200 or 404 for the data written, none is a 5xx other than
 * a refusal with a problem detail, none hangs, and afterwards the JVM holds no more threads or open
 * files than before. The seed is printed with any failure; run again with {@code -Dfuzz.seed=...}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpFuzzIntegrationTests {

  private static final int REQUESTS = 3000;

  private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(15);

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
  void answersEveryGeneratedRequestWithAProblemDetailOrTheRightDataAndLeaksNothing() {
    long seed = Long.getLong("fuzz.seed", System.nanoTime());
    List<RawHttp> instances =
        this.cluster.ports().stream().map(port -> new RawHttp(port, ANSWER_TIMEOUT)).toList();
    PeerSignatures signatures =
        new PeerSignatures(
            this.cluster.peerRequests(0),
            new PeerRequests(
                this.cluster.peerTrust(0),
                Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-5)),
                Duration.ofSeconds(30)));
    Map<Outcome, Long> checksBefore = signatureChecks();
    RequestFuzzer fuzzer = new RequestFuzzer(seed, cursors(instances.get(0)), signatures);
    for (int i = 0; i < 200; i++) {
      check(seed, instances.get(i % 2), fuzzer.next());
    }
    instances.forEach(HttpFuzzIntegrationTests::startEveryLazyPool);
    int threadsBefore = threads();
    Set<String> threadNamesBefore = threadNames();
    long filesBefore = openFiles();
    Map<Integer, Integer> statuses = new TreeMap<>();
    for (int i = 0; i < REQUESTS; i++) {
      statuses.merge(check(seed, instances.get(i % 2), fuzzer.next()), 1, Integer::sum);
    }
    System.out.println("Fuzz seed " + seed + ", answers by status: " + statuses);
    assertThat(statuses).containsKeys(200, 400, 403, 404);
    Map<Outcome, Long> checksAfter = signatureChecks();
    System.out.println("Signature checks during the run, by outcome: " + checksAfter);
    for (Outcome reached :
        List.of(
            Outcome.VALID,
            Outcome.MALFORMED,
            Outcome.MAC_MISMATCH,
            Outcome.STALE,
            Outcome.BODY_MISMATCH)) {
      assertThat(checksAfter.get(reached))
          .as("signature checks that came to %s (seed %d): the fuzzer reaches them", reached, seed)
          .isGreaterThan(checksBefore.get(reached));
    }
    await("threads and open files back to their count before the run (seed " + seed + ")")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () -> {
              assertThat(threads())
                  .as(
                      () ->
                          "threads, of which these started during the run: "
                              + newThreads(threadNamesBefore))
                  .isLessThanOrEqualTo(threadsBefore + 8);
              assertThat(openFiles()).isLessThanOrEqualTo(filesBefore + 16);
            });
  }

  /** Sends one request and checks its answer; returns its status. */
  private int check(long seed, RawHttp http, RequestFuzzer.FuzzRequest request) {
    String context = "seed " + seed + ", " + request.describe();
    RawHttp.Answer answer;
    try {
      answer =
          http.send(
              request.method(),
              request.target(),
              request.headers(),
              request.body(),
              request.chunked());
    } catch (AssertionError ex) {
      throw new AssertionError("Hang: " + context, ex);
    }
    assertThat(answer.failure()).as("no answer: " + context).isNull();
    int status = answer.status();
    String described =
        context + " -> " + status + " " + answer.headers() + " " + abbreviated(answer);
    assertThat(status).as(described).isBetween(200, 504).isNotIn(500, 501, 502);
    if (request.forged()) {
      assertThat(status).as(described).isEqualTo(403);
      assertThat(answer.header("Content-Type"))
          .as(described)
          .startsWith("application/problem+json");
      if (!request.method().equals("HEAD")) {
        assertThat(json(answer, described).path("type").asString())
            .as(described)
            .endsWith("/invalid-peer-signature");
      }
      return status;
    }
    if (request.expectedStatus() != null) {
      assertThat(status).as(described).isEqualTo(request.expectedStatus());
    }
    if (request.target().startsWith("/matview")) {
      checkDashboard(request, answer, described);
      return status;
    }
    if (request.expectedCount() != null) {
      checkData(request, answer, described);
    }
    boolean head = request.method().equals("HEAD");
    if (status >= 400) {
      assertThat(answer.header("Content-Type"))
          .as(described)
          .startsWith("application/problem+json");
      if (!head) {
        JsonNode problem = json(answer, described);
        assertThat(problem.path("status").asInt()).as(described).isEqualTo(status);
        assertThat(problem.path("type").isString()).as(described).isTrue();
        assertThat(problem.path("title").isString()).as(described).isTrue();
        assertThat(problem.path("detail").asString())
            .as(described)
            .isNotBlank()
            .doesNotContain("\tat ")
            .hasSizeLessThan(10_000);
      }
    } else if (!head && answer.header("Content-Type").startsWith("application/x-ndjson")) {
      assertThat(status).as(described).isEqualTo(200);
      checkLines(answer, described);
    } else if (!head && !request.method().equals("OPTIONS")) {
      assertThat(status).as(described).isEqualTo(200);
      assertThat(answer.header("Content-Type")).as(described).startsWith("application/json");
      json(answer, described);
    }
    return status;
  }

  /**
   * A streamed scan: JSON lines, the last without a key, with the cursor to resume at (null at the
   * scan's end) and, when the scan stopped early, the problem detail that stopped it.
   */
  private void checkLines(RawHttp.Answer answer, String described) {
    String body = new String(answer.body(), StandardCharsets.UTF_8);
    assertThat(body).as(described).endsWith("\n");
    String[] lines = body.split("\n");
    for (String line : lines) {
      assertThat(this.mapper.readTree(line).isObject()).as(described).isTrue();
    }
    JsonNode end = this.mapper.readTree(lines[lines.length - 1]);
    assertThat(end.has("key")).as(described).isFalse();
    assertThat(end.path("nextCursor").isNull() || end.path("nextCursor").isString())
        .as(described)
        .isTrue();
  }

  /**
   * The dashboard is a page, not part of the lookup API: its files come as text, and what it
   * refuses is a 4xx without a trace.
   */
  private static void checkDashboard(
      RequestFuzzer.FuzzRequest request, RawHttp.Answer answer, String described) {
    if (answer.status() == 200 && request.method().equals("GET")) {
      assertThat(answer.header("Content-Type"))
          .as(described)
          .matches("text/(html|css|javascript);charset=UTF-8");
    } else if (answer.status() != 200) {
      assertThat(answer.status()).as(described).isBetween(400, 499);
      assertThat(abbreviated(answer)).as(described).doesNotContain("\tat ");
    }
  }

  private void checkData(
      RequestFuzzer.FuzzRequest request, RawHttp.Answer answer, String described) {
    long expected = request.expectedCount();
    if (request.method().equals("POST")) {
      assertThat(answer.status()).as(described).isEqualTo(200);
      JsonNode item = json(answer, described).path("items").get(0);
      assertThat(item.path("key").asString()).as(described).isEqualTo(request.expectedKey());
      assertThat(item.path("found").asBoolean()).as(described).isEqualTo(expected > 0);
      if (expected > 0) {
        assertThat(item.path("value").asLong()).as(described).isEqualTo(expected);
      }
    } else if (expected > 0) {
      assertThat(answer.status()).as(described).isEqualTo(200);
      JsonNode body = json(answer, described);
      assertThat(body.path("key").asString()).as(described).isEqualTo(request.expectedKey());
      assertThat(body.path("value").asLong()).as(described).isEqualTo(expected);
    } else {
      assertThat(answer.status()).as(described).isEqualTo(404);
    }
  }

  /** Real cursors of a key scan and a window scan, for the fuzzer to replay and damage. */
  private List<String> cursors(RawHttp http) {
    List<String> cursors = new ArrayList<>();
    for (String target :
        List.of(
            "/views/per-item/keys?limit=1",
            "/views/per-quantity/keys?limit=2",
            "/views/per-minute/windows?from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z&limit=1")) {
      RawHttp.Answer answer = http.send("GET", target, Map.of(), new byte[0]);
      JsonNode next = json(answer, target).path("nextCursor");
      if (next.isString()) {
        cursors.add(next.asString());
      }
    }
    assertThat(cursors).isNotEmpty();
    return cursors;
  }

  private JsonNode json(RawHttp.Answer answer, String described) {
    try {
      return this.mapper.readTree(answer.body());
    } catch (JacksonException ex) {
      throw new AssertionError("Not JSON: " + described, ex);
    }
  }

  private static String abbreviated(RawHttp.Answer answer) {
    String text = answer.text();
    return text.length() > 500 ? text.substring(0, 500) + "..." : text;
  }

  /** The signature checks of both instances so far, by outcome. */
  private Map<Outcome, Long> signatureChecks() {
    Map<Outcome, Long> checks = new TreeMap<>();
    for (int n = 0; n < 2; n++) {
      for (Outcome outcome : Outcome.values()) {
        checks.merge(outcome, this.cluster.peerRequests(n).checks(outcome), Long::sum);
      }
    }
    return checks;
  }

  private static int threads() {
    return ManagementFactory.getThreadMXBean().getThreadCount();
  }

  /**
   * Asks {@code http} for every key of both tables that a path can hold, plain (some forwarded to
   * the other instance) and after a record of every partition, so that the pools each instance
   * starts on first use (forwarding, waiting for a position, reading positions and re-keyed
   * records) exist before the threads are counted, whatever the seed's first requests asked.
   */
  private static void startEveryLazyPool(RawHttp http) {
    for (int i = 0; i < HostileCluster.KEYS.size(); i++) {
      String key = HostileCluster.KEYS.get(i);
      if (!HostileCluster.PATH_KEYS.contains(key)) {
        continue;
      }
      for (int partition = 0; partition < 4; partition++) {
        String after = "?after=" + HostileCluster.TOPIC + ":" + partition + ":0";
        for (String path :
            List.of(
                HostileCluster.keyPath(HostileCluster.PER_ITEM, key),
                HostileCluster.keyPath(HostileCluster.PER_QUANTITY, Long.toString(i + 1)))) {
          for (String target : List.of(path, path + after)) {
            RawHttp.Answer answer = http.send("GET", target, Map.of(), new byte[0]);
            assertThat(answer.status()).as("%s: %s", target, answer.text()).isEqualTo(200);
          }
        }
      }
    }
  }

  private static Set<String> threadNames() {
    return Thread.getAllStackTraces().keySet().stream()
        .map(Thread::getName)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> newThreads(Set<String> before) {
    Set<String> started = threadNames();
    started.removeAll(before);
    return started;
  }

  private static long openFiles() {
    try (Stream<Path> files = Files.list(Path.of("/proc/self/fd"))) {
      return files.count();
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }
}
