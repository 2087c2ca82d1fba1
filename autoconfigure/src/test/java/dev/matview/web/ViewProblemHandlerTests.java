package dev.matview.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.peer.PeerResponse;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.ViewUnavailableException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpRequestMethodNotSupportedException;

/** Lookup failures become problem details with the status of the API. */
class ViewProblemHandlerTests {

  private final ViewProblemHandler handler = new ViewProblemHandler();

  @Test
  void answersGatewayTimeoutNamingViewAndPartitionButNotTheOwner() {
    ResponseEntity<ProblemDetail> answer =
        Refusals.problem(
            new Refusal(Refusal.Reason.TIMEOUT, "orders", null, 2, "too slow", Duration.ZERO));
    assertThat(answer.getStatusCode()).isEqualTo(HttpStatus.GATEWAY_TIMEOUT);
    assertThat(answer.getBody().getProperties())
        .containsEntry("view", "orders")
        .containsEntry("partition", 2)
        .doesNotContainKey("owner");
    assertThat(answer.getBody().toString()).doesNotContain("host-b");
  }

  @Test
  void answersServiceUnavailableWithRetryAfter() {
    ResponseEntity<ProblemDetail> answer =
        this.handler.unavailable(
            new ViewUnavailableException("orders", "k", 1, "restoring", Duration.ofSeconds(7)));
    assertThat(answer.getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
    assertThat(answer.getHeaders().getFirst("Retry-After")).isEqualTo("7");
    assertThat(answer.getBody().getProperties()).containsEntry("retryAfterSeconds", 7L);
  }

  @Test
  void answersARefusalAsTheExceptionsOfTheSameKindWereAnswered() {
    ResponseEntity<ProblemDetail> refused =
        Refusals.problem(
            new Refusal(
                Refusal.Reason.UNAVAILABLE, "orders", "k", 1, "restoring", Duration.ofSeconds(7)));
    ResponseEntity<ProblemDetail> thrown =
        this.handler.unavailable(
            new ViewUnavailableException("orders", "k", 1, "restoring", Duration.ofSeconds(7)));
    assertThat(refused.getStatusCode()).isEqualTo(thrown.getStatusCode());
    assertThat(refused.getHeaders().getFirst("Retry-After")).isEqualTo("7");
    assertThat(refused.getHeaders().getContentType()).hasToString("application/problem+json");
    assertThat(refused.getBody()).isEqualTo(thrown.getBody());
    ResponseEntity<ProblemDetail> late =
        Refusals.problem(
            new Refusal(Refusal.Reason.TIMEOUT, "orders", null, 2, "too slow", Duration.ZERO));
    assertThat(late.getStatusCode()).isEqualTo(HttpStatus.GATEWAY_TIMEOUT);
    assertThat(late.getBody().getType().toString()).endsWith("/owner-timeout");
    assertThat(late.getHeaders().getFirst("Retry-After")).isNull();
  }

  @Test
  void answersAFailureOfAStoreWith500SayingWhatFailed() {
    ResponseEntity<ProblemDetail> answer =
        Refusals.problem(
            new Refusal(
                Refusal.Reason.FAILED,
                "orders",
                "k",
                3,
                "The store of partition 3 of view 'orders' failed to read this key"
                    + " (ProcessorStateException, logged by this instance)",
                Duration.ofSeconds(1)));
    assertThat(answer.getStatusCode()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
    assertThat(answer.getBody().getType().toString()).endsWith("/lookup-failed");
    assertThat(answer.getBody().getDetail()).contains("ProcessorStateException");
    assertThat(answer.getBody().getProperties())
        .containsEntry("view", "orders")
        .containsEntry("partition", 3);
  }

  @Test
  void answersAnUnexpectedFailureWith500AndAShortDetailThatTellsNothingOfIt() {
    ResponseEntity<ProblemDetail> answer =
        this.handler.unexpected(new IllegalStateException("secret internals at Foo.java:42"));
    assertThat(answer.getStatusCode()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
    assertThat(answer.getBody().getDetail())
        .isEqualTo(
            "The lookup failed unexpectedly; the failure is logged by the instance that answered");
    assertThat(answer.getBody().getType().toString()).endsWith("/internal-error");
  }

  @Test
  void keepsTheStatusAndHeadersOfSpringMvcsOwnFailures() {
    ResponseEntity<ProblemDetail> answer =
        this.handler.unexpected(
            new HttpRequestMethodNotSupportedException("DELETE", List.of("GET")));
    assertThat(answer.getStatusCode()).isEqualTo(HttpStatus.METHOD_NOT_ALLOWED);
    assertThat(answer.getHeaders().getFirst("Allow")).isEqualTo("GET");
    assertThat(answer.getBody().getDetail()).contains("DELETE");
  }

  @Test
  void answersAKeyTooLongWith414AndABodyTooLargeWith413() {
    assertThat(
            this.handler.keyTooLong(new KeyTooLongException("orders", 2000, 1024)).getStatusCode())
        .isEqualTo(HttpStatus.URI_TOO_LONG);
    ResponseEntity<ProblemDetail> tooLarge =
        this.handler.bodyTooLarge(new BodyTooLargeException("orders", 1024, 4096));
    assertThat(tooLarge.getStatusCode()).isEqualTo(HttpStatus.CONTENT_TOO_LARGE);
    assertThat(tooLarge.getBody().getDetail()).contains("4096 bytes").contains("1024 bytes");
  }

  @Test
  void passesOnTheOwnersProblemAsItCame() {
    byte[] body = "{\"status\":404}".getBytes(StandardCharsets.UTF_8);
    Map<String, List<String>> headers = Map.of("Content-Type", List.of("application/problem+json"));
    ResponseEntity<?> answer =
        Refusals.respond(
            new Routed.Relayed<String>(new PeerResponse(404, headers, body)),
            (local) -> ResponseEntity.ok(local));
    assertThat(answer.getStatusCode().value()).isEqualTo(404);
    assertThat(answer.getHeaders().getFirst("Content-Type")).isEqualTo("application/problem+json");
    assertThat(answer.getBody()).isEqualTo(body);
  }

  @Test
  void answersEveryReasonForShuttingDownOrMovingPartitionsWith503AndRetryAfter() {
    for (Refusal.Reason reason :
        List.of(
            Refusal.Reason.SHUTTING_DOWN,
            Refusal.Reason.NOT_RUNNING,
            Refusal.Reason.OWNER_UNKNOWN,
            Refusal.Reason.UNAVAILABLE,
            Refusal.Reason.UNREACHABLE)) {
      ResponseEntity<ProblemDetail> answer =
          Refusals.problem(new Refusal(reason, "orders", "k", 0, "not now", Duration.ofSeconds(2)));
      assertThat(answer.getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
      assertThat(answer.getHeaders().getFirst("Retry-After")).isEqualTo("2");
    }
  }
}
