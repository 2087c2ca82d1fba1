package dev.matview.query.peer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.execution.MatviewExecutors;
import dev.matview.peer.PeerPath;
import dev.matview.peer.PeerResponse;
import dev.matview.peer.TestPeers;
import dev.matview.position.InputRecord;
import dev.matview.position.ReadBound;
import dev.matview.query.StaleReadTests;
import dev.matview.query.StubInstance;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Key lookups that ask for a position, each its own, against a stub owner over real HTTP that holds
 * lookups: those that arrive while one is on its way go together in one request, with the bound,
 * once they waited the gathering time, without waiting for the held one; each gets its own answer,
 * with no thread waiting for any; when the owner does not answer them together they go alone; when
 * the request fails each is refused.
 */
class GatheredKeyLookupsTests {

  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private static final String BOUND = "?after=items%3A0%3A41";

  /** Long enough that the lookups this test starts one after the other wait for one request. */
  private static final Duration GATHERING = Duration.ofMillis(500);

  private final StubInstance owner =
      new StubInstance().answering(200, Map.of(), "{\"key\":\"alone\",\"value\":0}").hanging();

  private final PeerClient peers =
      new PeerClient("/views", TIMEOUT, null, TestPeers.requests(), false);

  private final MatviewExecutors executors = new MatviewExecutors();

  private final GatheredKeyLookups lookups =
      new GatheredKeyLookups(
          this.peers,
          JsonMapper.builder().build(),
          Pause.of(GATHERING, this.executors.timer(), this.executors.workers()));

  @AfterEach
  void stop() {
    this.owner.close();
    this.peers.close();
    this.executors.close();
  }

  @Test
  void lookupsThatArriveWhileOneIsOnItsWayGoTogetherWithTheBound() throws Exception {
    this.owner.answeringPosts(
        200,
        "[{\"status\":200,\"headers\":{\"Matview-Served-By\":\"owner:1\"},"
            + "\"body\":\"{\\\"key\\\":\\\"k-2\\\",\\\"value\\\":2}\"},"
            + "{\"status\":503,\"headers\":{\"Retry-After\":\"1\"},"
            + "\"body\":\"{\\\"status\\\":503}\"}]");

    List<Routed<PeerResponse>> answers = lookUpWhileTheFirstWaits("k-1", "k-2", "k-3");

    assertThat(body(answers.get(0))).contains("\"alone\"");
    assertThat(body(answers.get(1))).isEqualTo("{\"key\":\"k-2\",\"value\":2}");
    assertThat(response(answers.get(1)).header("Matview-Served-By")).isEqualTo("owner:1");
    assertThat(response(answers.get(2)).status()).isEqualTo(503);
    assertThat(response(answers.get(2)).header("Retry-After")).isEqualTo("1");
    assertThat(this.owner.received())
        .extracting(request -> request.get("method") + " " + request.get("path"))
        .containsExactly("GET /views/counts/keys/k-1" + BOUND, "POST /views/counts/forwarded-keys");
    assertThat(this.owner.received().get(1).get("signature")).isNotEqualTo("null");
  }

  @Test
  void lookupsWithoutABoundGoTogetherInABodyWithoutBounds() throws Exception {
    this.owner.answeringPosts(
        200,
        "[{\"status\":200,\"headers\":{},\"body\":\"{\\\"key\\\":\\\"k-2\\\",\\\"value\\\":2}\"},"
            + "{\"status\":200,\"headers\":{},\"body\":\"{\\\"key\\\":\\\"k-3\\\",\\\"value\\\":3}\"}]");

    List<Routed<PeerResponse>> answers =
        lookUpWhileTheFirstWaits(this::lookUpWithoutBound, "k-1", "k-2", "k-3");

    assertThat(body(answers.get(0))).contains("\"alone\"");
    assertThat(body(answers.get(1))).isEqualTo("{\"key\":\"k-2\",\"value\":2}");
    assertThat(body(answers.get(2))).isEqualTo("{\"key\":\"k-3\",\"value\":3}");
    assertThat(this.owner.received())
        .extracting(request -> request.get("method") + " " + request.get("path"))
        .containsExactly("GET /views/counts/keys/k-1", "POST /views/counts/forwarded-keys");
    assertThat(this.owner.received().get(1).get("body")).isEqualTo("{\"keys\":[\"k-2\",\"k-3\"]}");
  }

  @Test
  void lookupsGoAloneWhenTheOwnerDoesNotAnswerThemTogether() throws Exception {
    this.owner.answeringPosts(404, "Not Found");

    List<Routed<PeerResponse>> answers = lookUpWhileTheFirstWaits("k-1", "k-2", "k-3");

    assertThat(answers).allSatisfy(answer -> assertThat(body(answer)).contains("\"alone\""));
    assertThat(this.owner.received())
        .extracting(request -> request.get("method") + " " + request.get("path"))
        .containsExactlyInAnyOrder(
            "GET /views/counts/keys/k-1" + BOUND,
            "POST /views/counts/forwarded-keys",
            "GET /views/counts/keys/k-2?after=items%3A0%3A42",
            "GET /views/counts/keys/k-3?after=items%3A0%3A43");
  }

  @Test
  void everyLookupOfARequestThatFailsIsRefusedAsItsOwnForwardWouldBe() throws Exception {
    this.owner.closingPostsWithoutAnswer();

    List<Routed<PeerResponse>> answers = lookUpWhileTheFirstWaits("k-1", "k-2", "k-3");

    assertThat(body(answers.get(0))).contains("\"alone\"");
    for (Routed<PeerResponse> refused : answers.subList(1, 3)) {
      Refusal refusal = StaleReadTests.refusal(refused);
      assertThat(refusal.reason()).isEqualTo(Refusal.Reason.UNAVAILABLE);
      assertThat(refusal.partition()).isEqualTo(3);
      assertThat(refusal.detail()).contains("owned by another instance");
    }
  }

  /**
   * Looks {@code first} up, and the other keys while the owner holds the first lookup's request;
   * once the others went after the gathering time, lets the owner answer. Every lookup is started
   * from this one thread.
   */
  private List<Routed<PeerResponse>> lookUpWhileTheFirstWaits(String first, String... others)
      throws Exception {
    return lookUpWhileTheFirstWaits(this::lookUp, first, others);
  }

  /** As above, each key looked up by {@code lookUp}. */
  private List<Routed<PeerResponse>> lookUpWhileTheFirstWaits(
      Function<String, CompletableFuture<Routed<PeerResponse>>> lookUp,
      String first,
      String... others)
      throws Exception {
    List<CompletableFuture<Routed<PeerResponse>>> pending = new ArrayList<>();
    pending.add(lookUp.apply(first));
    await().atMost(TIMEOUT).until(() -> this.owner.received().size() == 1);
    for (String key : others) {
      pending.add(lookUp.apply(key));
    }
    assertThat(this.lookups.waiting()).isEqualTo(others.length);
    await("the waiting lookups go without the held one")
        .atMost(TIMEOUT)
        .until(() -> this.owner.received().size() >= 2);
    assertThat(pending.get(0)).isNotDone();
    this.owner.release();
    List<Routed<PeerResponse>> answers = new ArrayList<>();
    for (CompletableFuture<Routed<PeerResponse>> answer : pending) {
      answers.add(answer.get(1, TimeUnit.MINUTES));
    }
    await("no destination kept after every answer")
        .atMost(TIMEOUT)
        .until(() -> this.lookups.destinations() == 0);
    return answers;
  }

  /** A lookup of {@code key}, {@code k-<n>}, after record {@code 40 + n} of partition 0. */
  private CompletableFuture<Routed<PeerResponse>> lookUp(String key) {
    InputRecord after = new InputRecord("items", 0, 40 + Long.parseLong(key.substring(2)));
    ReadBound bound = new ReadBound(null, null, List.of(after), Duration.ofSeconds(2));
    return this.lookups.fetch(
        "counts",
        this.owner.owner(3),
        key,
        PeerPath.of(),
        CallerContext.direct().withBound(bound),
        TIMEOUT);
  }

  /** A lookup of {@code key} that asks for no position. */
  private CompletableFuture<Routed<PeerResponse>> lookUpWithoutBound(String key) {
    return this.lookups.fetch(
        "counts", this.owner.owner(3), key, PeerPath.of(), CallerContext.direct(), TIMEOUT);
  }

  private static PeerResponse response(Routed<PeerResponse> answer) {
    assertThat(answer).isInstanceOf(Routed.Relayed.class);
    return ((Routed.Relayed<PeerResponse>) answer).response();
  }

  private static String body(Routed<PeerResponse> answer) {
    return new String(response(answer).body(), UTF_8);
  }
}
