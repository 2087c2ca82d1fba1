package dev.matview.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.execution.MatviewExecutors;
import dev.matview.peer.PeerSecret;
import dev.matview.peer.PeerTrust;
import dev.matview.position.PositionTokens;
import dev.matview.position.ReadBound;
import dev.matview.position.ViewPosition;
import dev.matview.query.answer.Routed;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.web.MockHttpServletRequest;

/** The position an answer carries, given the one its request sent back. */
class ConsistencyTests {

  private static final String VIEW = "orders-per-customer";

  private final PositionTokens tokens =
      new PositionTokens(PeerTrust.of(PeerSecret.of(PeerSecret.randomMaterial())), "shop");

  private final MatviewExecutors executors = new MatviewExecutors();

  private final Consistency consistency =
      new Consistency(
          this.tokens,
          Duration.ofSeconds(2),
          Consistency.DEFAULT_FORWARDING_TIMEOUT,
          this.executors.timer(),
          this.executors.workers(),
          WrittenRecords.UNCHECKED);

  @AfterEach
  void stopExecutors() {
    this.executors.close();
  }

  @Test
  void anAnswerCarriesThePositionSentBackForThePartitionsItDidNotRead() {
    MockHttpServletRequest request =
        new MockHttpServletRequest("GET", "/views/" + VIEW + "/keys/a");
    request.addHeader(
        Consistency.POSITION_HEADER,
        this.tokens.write(ViewPosition.of(VIEW, Map.of(0, 40L, 1, 7L))));
    ReadBound bound = this.consistency.bounds().bound(request, VIEW);

    ResponseEntity<?> answer =
        this.consistency.answer(
            request,
            VIEW,
            bound,
            () ->
                CompletableFuture.completedFuture(
                    new Routed.Local<>("value", ViewPosition.of(VIEW, 1, 9L))),
            this::respond);

    assertThat(answer).isNotNull();
    String token = answer.getHeaders().getFirst(Consistency.POSITION_HEADER);
    assertThat(this.tokens.read(VIEW, token))
        .isEqualTo(ViewPosition.of(VIEW, Map.of(0, 40L, 1, 9L)));
  }

  @Test
  void anAnswerOfUnknownPositionOrFromAnotherInstanceIsLeftAsItIs() {
    ReadBound bound =
        new ReadBound(ViewPosition.of(VIEW, 0, 40L), "token", List.of(), Duration.ofSeconds(2));
    Routed<String> unknown = new Routed.Local<>("value");

    assertThat(Consistency.withSentPosition(unknown, bound)).isSameAs(unknown);
    assertThat(Consistency.withSentPosition(unknown, ReadBound.NONE)).isSameAs(unknown);
    Routed<String> read = new Routed.Local<>("value", ViewPosition.of(VIEW, 2, 3L));
    assertThat(Consistency.withSentPosition(read, ReadBound.NONE)).isSameAs(read);
  }

  private ResponseEntity<?> respond(Routed<String> routed) {
    Routed.Local<String> local = (Routed.Local<String>) routed;
    return this.consistency
        .withPosition(ResponseEntity.ok(), local.position())
        .body(local.answer());
  }
}
