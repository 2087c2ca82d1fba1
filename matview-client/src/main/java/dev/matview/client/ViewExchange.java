package dev.matview.client;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * Sends the requests of views: with the position its call asks for, again after each {@code
 * Retry-After} of a 503 or 429 while the call's deadline allows, keeping the position each answer
 * carries; a streamed scan's answer is handed on with its body still open. Spring's {@code
 * RetryTemplate} is not used: its back-off cannot see the answer whose {@code Retry-After} sets the
 * wait.
 */
final class ViewExchange {

  private static final byte[] NO_BODY = new byte[0];

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
    Deadline deadline = Deadline.after(options.deadline());
    return answer(view, options, deadline, position -> send(view, request, position)).answer();
  }

  /**
   * The successful answer to {@code request} of {@code view} asked as {@code application/x-ndjson},
   * after the retries of 503 and 429 that {@code deadline} allows, with its body still to be read;
   * the caller closes it.
   *
   * @throws MatviewUnavailableException when the next retry would run past the deadline
   * @throws MatviewClientException for a refusal, or an answer that is not a stream of lines
   */
  ClientHttpResponse open(
      String view, ViewRequest request, CallOptions options, Deadline deadline) {
    Received received =
        answer(view, options, deadline, position -> sendStreamed(view, request, position));
    ClientHttpResponse response = received.open();
    if (response != null) {
      return response;
    }
    RawAnswer answer = received.answer();
    if (!answer.successful()) {
      throw this.problems.refusal(view, answer);
    }
    throw new MatviewClientException(
        "View '"
            + view
            + "' answered "
            + answer.status()
            + " with "
            + answer.headers().getContentType()
            + " rather than a stream of lines ("
            + MediaType.APPLICATION_NDJSON_VALUE
            + ")",
        view,
        answer.status(),
        null,
        null);
  }

  /**
   * Waits the {@code Retry-After} of {@code refusal}, a 503 or 429 of {@code view}.
   *
   * @throws MatviewUnavailableException when the wait would run past {@code deadline}
   */
  void awaitRetry(String view, RawAnswer refusal, Deadline deadline) {
    Duration wait =
        RetryAfter.of(refusal.headers().getFirst(HttpHeaders.RETRY_AFTER), Instant.now());
    if (!deadline.allows(wait)) {
      throw this.problems.unavailable(view, refusal, wait, deadline.length());
    }
    pause(view, wait);
  }

  /** The client the requests go through. */
  RestClient restClient() {
    return this.restClient;
  }

  /** The problem details this exchange reads refusals with. */
  Problems problems() {
    return this.problems;
  }

  /**
   * Waits {@code wait} before a call of {@code view} asks again.
   *
   * @throws MatviewClientException when the wait is interrupted
   */
  static void pause(String view, Duration wait) {
    try {
      TimeUnit.NANOSECONDS.sleep(wait.toNanos());
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw new MatviewClientException(
          "Interrupted while waiting to call view '" + view + "' again", view, 0, null, ex);
    }
  }

  private Received answer(
      String view,
      CallOptions options,
      Deadline deadline,
      Function<@Nullable String, Received> send) {
    boolean monotonic = options.consistency() == Consistency.MONOTONIC;
    while (true) {
      String sent = monotonic ? this.positions.get(view) : null;
      Received received = send.apply(sent);
      RawAnswer answer = received.answer();
      if (answer.status() != 503 && answer.status() != 429) {
        if (monotonic) {
          this.positions.advance(
              view, sent, answer.headers().getFirst(AnswerMetadata.POSITION_HEADER));
        }
        return received;
      }
      awaitRetry(view, answer, deadline);
    }
  }

  private Received send(String view, ViewRequest request, @Nullable String position) {
    RestClient.RequestBodySpec spec =
        spec(request, position, MediaType.APPLICATION_JSON, MediaType.APPLICATION_PROBLEM_JSON);
    try {
      return spec.exchangeForRequiredValue(
          (sentRequest, response) -> new Received(whole(response), null), true);
    } catch (RestClientException ex) {
      throw unreachable(view, ex);
    }
  }

  private Received sendStreamed(String view, ViewRequest request, @Nullable String position) {
    RestClient.RequestBodySpec spec =
        spec(request, position, MediaType.APPLICATION_NDJSON, MediaType.APPLICATION_PROBLEM_JSON);
    try {
      return spec.exchangeForRequiredValue((sentRequest, response) -> openOrWhole(response), false);
    } catch (RestClientException ex) {
      throw unreachable(view, ex);
    }
  }

  private RestClient.RequestBodySpec spec(
      ViewRequest request, @Nullable String position, MediaType... accept) {
    RestClient.RequestBodySpec spec =
        this.restClient
            .method(request.method())
            .uri(request.template(), request.variables())
            .accept(accept);
    if (position != null) {
      spec.header(AnswerMetadata.POSITION_HEADER, position);
    }
    byte[] body = request.body();
    if (body != null) {
      spec.contentType(MediaType.APPLICATION_JSON).body(body);
    }
    return spec;
  }

  /** A successful stream of lines left open, any other answer read whole and closed. */
  private static Received openOrWhole(ClientHttpResponse response) throws IOException {
    boolean streaming = false;
    try {
      RawAnswer head =
          new RawAnswer(
              response.getStatusCode().value(), HttpHeaders.copyOf(response.getHeaders()), NO_BODY);
      MediaType type = head.headers().getContentType();
      streaming =
          head.successful() && type != null && MediaType.APPLICATION_NDJSON.isCompatibleWith(type);
      return streaming ? new Received(head, response) : new Received(whole(response), null);
    } finally {
      if (!streaming) {
        response.close();
      }
    }
  }

  private static RawAnswer whole(ClientHttpResponse response) throws IOException {
    return new RawAnswer(
        response.getStatusCode().value(),
        HttpHeaders.copyOf(response.getHeaders()),
        response.getBody().readAllBytes());
  }

  private static MatviewClientException unreachable(String view, RestClientException ex) {
    return new MatviewClientException(
        "View '" + view + "' could not be called: " + ex.getMessage(), view, 0, null, ex);
  }

  /**
   * An answer as one attempt received it.
   *
   * @param answer its status and headers, and its body unless it is open
   * @param open the response whose body is still to be read, {@code null} when read whole
   */
  private record Received(RawAnswer answer, @Nullable ClientHttpResponse open) {}
}
