package dev.matview.web;

import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import java.util.function.Function;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * The one place where a lookup's outcome becomes HTTP: 503 with {@code Retry-After} when no replica
 * may answer now, 504 when the owner did not answer in time, 500 when something failed; an owner's
 * answer passes on as it came.
 */
final class Refusals {

  private static final Log logger = LogFactory.getLog(Refusals.class);

  private Refusals() {}

  /**
   * The response to {@code routed}: {@code local} of the answer here, the owner's, or the
   * refusal's.
   */
  static <T> ResponseEntity<?> respond(Routed<T> routed, Function<T, ResponseEntity<?>> local) {
    if (routed instanceof Routed.Local<T> here) {
      return local.apply(here.answer());
    }
    if (routed instanceof Routed.Relayed<T> relayed) {
      return Relay.of(relayed.response());
    }
    return problem(((Routed.Refused<T>) routed).refusal());
  }

  /** The problem detail of {@code refusal}, typed {@code application/problem+json}. */
  static ResponseEntity<ProblemDetail> problem(Refusal refusal) {
    if (logger.isDebugEnabled()) {
      logger.debug("Lookup refused (" + refusal.reason() + "): " + refusal.detail());
    }
    Refusal.Reason reason = refusal.reason();
    ProblemDetail problem =
        Problems.typed(
            statusOf(reason),
            switch (reason) {
              case TIMEOUT -> "owner-timeout";
              case FAILED -> "lookup-failed";
              case BEHIND -> "position-not-reached";
              default -> "view-unavailable";
            },
            switch (reason) {
              case TIMEOUT -> "Owner did not answer in time";
              case FAILED -> "Lookup failed";
              case BEHIND -> "Replica behind the position asked for";
              default -> "View unavailable";
            },
            refusal.detail());
    problem.setProperty("view", refusal.view());
    ResponseEntity.BodyBuilder response =
        ResponseEntity.status(problem.getStatus()).contentType(MediaType.APPLICATION_PROBLEM_JSON);
    boolean retryable = reason != Refusal.Reason.TIMEOUT && reason != Refusal.Reason.FAILED;
    if (retryable) {
      setIfKnown(problem, "key", refusal.key());
    }
    setIfKnown(problem, "partition", refusal.partition());
    Refusal.@Nullable Behind behind = refusal.behind();
    if (reason == Refusal.Reason.BEHIND && behind != null) {
      problem.setProperty("appliedOffset", behind.applied());
      problem.setProperty("requiredOffset", behind.required());
    }
    if (retryable) {
      long retryAfterSeconds = Math.max(1, refusal.retryAfter().toSeconds());
      problem.setProperty("retryAfterSeconds", retryAfterSeconds);
      response.header(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
    }
    return response.body(problem);
  }

  /** The HTTP status that tells {@code reason}. */
  static HttpStatus statusOf(Refusal.Reason reason) {
    return switch (reason) {
      case TIMEOUT -> HttpStatus.GATEWAY_TIMEOUT;
      case FAILED -> HttpStatus.INTERNAL_SERVER_ERROR;
      case SHUTTING_DOWN, NOT_RUNNING, OWNER_UNKNOWN, UNAVAILABLE, UNREACHABLE, BEHIND ->
          HttpStatus.SERVICE_UNAVAILABLE;
    };
  }

  private static void setIfKnown(ProblemDetail problem, String name, @Nullable Object value) {
    if (value != null) {
      problem.setProperty(name, value);
    }
  }
}
