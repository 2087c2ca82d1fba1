package dev.matview.query.peer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.peer.PeerPath;
import dev.matview.peer.PeerResponse;
import dev.matview.peer.TestPeers;
import dev.matview.query.StaleReadTests;
import dev.matview.query.StubInstance;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Key lookups that wait for a busy owner, against a stub owner over real HTTP: they go together in
 * the next request and each gets its own answer; when the owner does not answer them together they
 * go alone; when the request fails each is refused.
 */
class ForwardedKeyLookupsTests {

  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final StubInstance owner =
      new StubInstance().answering(200, Map.of(), "{\"key\":\"alone\",\"value\":0}").hanging();

  private final PeerClient peers =
      new PeerClient("/views", TIMEOUT, null, TestPeers.requests(), false);

  private final ForwardedKeyLookups lookups =
      new ForwardedKeyLookups(this.peers, JsonMapper.builder().build());

  private final ExecutorService threads = Executors.newFixedThreadPool(3);

  @AfterEach
  void stop() {
    this.threads.shutdownNow();
    this.owner.close();
    this.peers.close();
  }

  @Test
  void lookupsThatWaitForABusyOwnerGoTogetherAndEachGetsItsOwnAnswer() throws Exception {
    this.owner.answeringPosts(
        200,
        "[{\"status\":200,\"headers\":{\"Matview-Served-By\":\"owner:1\"},"
            + "\"body\":\"{\\\"key\\\":\\\"k-2\\\",\\\"value\\\":2}\"},"
            + "{\"status\":404,\"headers\":{\"Content-Type\":\"application/problem+json\"},"
            + "\"body\":\"{\\\"status\\\":404}\"}]");

    List<Routed<PeerResponse>> answers = lookUpWhileTheFirstWaits("k-1", "k-2", "k-3");

    assertThat(body(answers.get(0))).contains("\"alone\"");
    assertThat(body(answers.get(1))).isEqualTo("{\"key\":\"k-2\",\"value\":2}");
    assertThat(response(answers.get(1)).header("Matview-Served-By")).isEqualTo("owner:1");
    assertThat(response(answers.get(2)).status()).isEqualTo(404);
    assertThat(response(answers.get(2)).header("Content-Type"))
        .isEqualTo("application/problem+json");
    assertThat(this.owner.received())
        .extracting(request -> request.get("method") + " " + request.get("path"))
        .containsExactly("GET /views/counts/keys/k-1", "POST /views/counts/forwarded-keys");
    Map<String, String> together = this.owner.received().get(1);
    assertThat(together.get("forwarded")).isEqualTo("1");
    assertThat(together.get("signature")).isNotEqualTo("null");
  }

  @Test
  void lookupsGoAloneWhenTheOwnerDoesNotAnswerThemTogether() throws Exception {
    this.owner.answeringPosts(404, "Not Found");

    List<Routed<PeerResponse>> answers = lookUpWhileTheFirstWaits("k-1", "k-2", "k-3");

    assertThat(answers).allSatisfy(answer -> assertThat(body(answer)).contains("\"alone\""));
    assertThat(this.owner.received())
        .extracting(request -> request.get("method") + " " + request.get("path"))
        .containsExactlyInAnyOrder(
            "GET /views/counts/keys/k-1",
            "POST /views/counts/forwarded-keys",
            "GET /views/counts/keys/k-2",
            "GET /views/counts/keys/k-3");
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
   * Looks {@code first} up, and the other keys, in their order, while the owner holds the first
   * lookup's request; then lets the owner answer.
   */
  private List<Routed<PeerResponse>> lookUpWhileTheFirstWaits(String first, String... others)
      throws Exception {
    Future<Routed<PeerResponse>> firstAnswer = this.threads.submit(() -> lookUp(first));
    await().atMost(TIMEOUT).until(() -> this.owner.received().size() == 1);
    List<Future<Routed<PeerResponse>>> otherAnswers = new java.util.ArrayList<>();
    for (String key : others) {
      int waitingBefore = otherAnswers.size();
      otherAnswers.add(this.threads.submit(() -> lookUp(key)));
      await().atMost(TIMEOUT).until(() -> this.lookups.waiting() == waitingBefore + 1);
    }
    this.owner.release();
    List<Routed<PeerResponse>> answers = new java.util.ArrayList<>();
    answers.add(firstAnswer.get(1, TimeUnit.MINUTES));
    for (Future<Routed<PeerResponse>> answer : otherAnswers) {
      answers.add(answer.get(1, TimeUnit.MINUTES));
    }
    await("no destination kept after every answer")
        .atMost(TIMEOUT)
        .until(() -> this.lookups.destinations() == 0);
    return answers;
  }

  private Routed<PeerResponse> lookUp(String key) {
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
