package dev.matview.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.matview.client.StubServer.Reply;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Tests of the refusals a call throws, each with the problem detail the server answered. */
class FailuresTests {

  private final StubServer server = StubServer.start();

  private final RemoteView<String, Long> orders =
      MatviewClient.create(this.server.baseUrl())
          .view("orders-per-customer", String.class, Long.class);

  @AfterEach
  void stopServer() {
    this.server.close();
  }

  @Test
  void throwsABadRequestWithTheParameterThatWasWrong() {
    this.server.then(
        Reply.problem(
            400,
            """
            {"type": "https://matview.dev/problems/invalid-request", "title": "Bad request",
             "status": 400, "detail": "'from' is after 'to'", "view": "orders-per-customer",
             "parameter": "from"}"""));
    assertThatExceptionOfType(MatviewBadRequestException.class)
        .isThrownBy(
            () ->
                this.orders.windows("alice", Instant.parse("2026-02-01T00:00:00Z"), Instant.EPOCH))
        .withMessage("View 'orders-per-customer' answered 400: 'from' is after 'to'")
        .satisfies(
            ex -> {
              assertThat(ex.status()).isEqualTo(400);
              assertThat(ex.view()).isEqualTo("orders-per-customer");
              assertThat(ex.problem()).isNotNull();
              assertThat(ex.problem().parameter()).isEqualTo("from");
              assertThat(ex.problem().is("invalid-request")).isTrue();
            });
  }

  @Test
  void throwsAnUnknownViewForAViewTheServerDoesNotHave() {
    this.server.then(
        Reply.problem(
            404,
            """
            {"type": "https://matview.dev/problems/unknown-view", "title": "Unknown view",
             "status": 404, "detail": "There is no view named 'orders-per-planet'",
             "view": "orders-per-planet"}"""));
    assertThatExceptionOfType(MatviewUnknownViewException.class)
        .isThrownBy(() -> this.orders.get("alice"))
        .satisfies(ex -> assertThat(ex.problem().view()).isEqualTo("orders-per-planet"));
  }

  @Test
  void throwsForA404ThatIsNoMatviewProblemRatherThanAnsweringEmpty() {
    this.server.then(Reply.json(404, "{\"error\": \"Not Found\"}"));
    assertThatExceptionOfType(MatviewClientException.class)
        .isThrownBy(() -> this.orders.get("alice"))
        .satisfies(
            ex -> {
              assertThat(ex).isExactlyInstanceOf(MatviewClientException.class);
              assertThat(ex.status()).isEqualTo(404);
              assertThat(ex.problem()).isNull();
            });
  }

  @Test
  void throwsTheStatusAndTheStartOfABodyThatIsNoProblemDetail() {
    this.server.then(
        new Reply(502, Map.of("Content-Type", "text/html"), "<html>Bad gateway</html>"));
    assertThatExceptionOfType(MatviewClientException.class)
        .isThrownBy(() -> this.orders.get("alice"))
        .withMessage("View 'orders-per-customer' answered 502: <html>Bad gateway</html>")
        .satisfies(ex -> assertThat(ex.problem()).isNull());
  }

  @Test
  void throwsWhenTheServiceCannotBeReached() {
    String url = this.server.baseUrl();
    this.server.close();
    RemoteView<String, Long> unreachable =
        MatviewClient.create(url).view("orders-per-customer", String.class, Long.class);
    assertThatExceptionOfType(MatviewClientException.class)
        .isThrownBy(() -> unreachable.get("alice"))
        .withMessageStartingWith("View 'orders-per-customer' could not be called: ")
        .satisfies(
            ex -> {
              assertThat(ex.status()).isZero();
              assertThat(ex.getCause()).isNotNull();
            });
  }
}
