package dev.matview.client;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * Sends the requests of views: with the position its call asks for, again after each {@code
 * Retry-After} of a 503 or 429 while the call's deadline allows, keeping the position each answer
 * carries. Spring's {@code RetryTemplate} is not used: its back-off cannot see the answer whose
 * {@code Retry-After} sets the wait.
 */
final class ViewExchange {

  private final RestClient restClient;

  private final Positions positions;

  private final Problems problems;

  ViewExchange(RestClient restClient, Positions positions, Problems problems) {
    this.restClient = restClient;
    this.positions = positions;
    this.problems = problems;
  }

  /**
   * The first answer to {@code request} of {@code view} that is not a 503 or 429.
   *
   * @throws MatviewUnavailableException when the next retry would run past the call's deadline
   * @throws MatviewClientException when the server could not be reached or the wait was interrupted
   */
  RawAnswer exchange(String view, ViewRequest request, CallOptions options) {
    long deadline = System.nanoTime() + options.deadline().toNanos();
    boolean monotonic = options.consistency() == Consistency.MONOTONIC;
    while (true) {
      String sent = monotonic ? this.positions.get(view) : null;
      RawAnswer answer = send(view, request, sent);
      if (answer.status() != 503 && answer.status() != 429) {
        if (monotonic) {
          this.positions.advance(
              view, sent, answer.headers().getFirst(AnswerMetadata.POSITION_HEADER));
        }
        return answer;
      }
      Duration wait =
          RetryAfter.of(answer.headers().getFirst(HttpHeaders.RETRY_AFTER), Instant.now());
      if (wait.toNanos() > deadline - System.nanoTime()) {
        throw this.problems.unavailable(view, answer, wait, options.deadline());
      }
      pause(view, wait);
    }
  }

  /** The client the requests go through. */
  RestClient restClient() {
    return this.restClient;
  }

  /** The problem details this exchange reads refusals with. */
  Problems problems() {
    return this.problems;
  }

  private RawAnswer send(String view, ViewRequest request, @Nullable String position) {
    RestClient.RequestBodySpec spec =
        this.restClient
            .method(request.method())
            .uri(request.template(), request.variables())
            .accept(MediaType.APPLICATION_JSON, MediaType.APPLICATION_PROBLEM_JSON);
    if (position != null) {
      spec.header(AnswerMetadata.POSITION_HEADER, position);
    }
    byte[] body = request.body();
    if (body != null) {
      spec.contentType(MediaType.APPLICATION_JSON).body(body);
    }
    try {
      return spec.exchangeForRequiredValue(
          (sentRequest, response) ->
              new RawAnswer(
                  response.getStatusCode().value(),
                  HttpHeaders.copyOf(response.getHeaders()),
                  response.getBody().readAllBytes()),
          true);
    } catch (RestClientException ex) {
      throw new MatviewClientException(
          "View '" + view + "' could not be called: " + ex.getMessage(), view, 0, null, ex);
    }
  }

  private static void pause(String view, Duration wait) {
    try {
      TimeUnit.NANOSECONDS.sleep(wait.toNanos());
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw new MatviewClientException(
          "Interrupted while waiting to call view '" + view + "' again", view, 0, null, ex);
    }
  }
}
