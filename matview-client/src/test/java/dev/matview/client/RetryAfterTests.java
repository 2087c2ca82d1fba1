package dev.matview.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.matview.client.StubServer.Reply;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Tests of calls that a server refuses with 503 or 429 and {@code Retry-After}: asked again after
 * the wait while the deadline allows, and refused with the problem detail when it does not.
 */
class RetryAfterTests {

  private final StubServer server = StubServer.start();

  private final RemoteView<String, Long> orders =
      MatviewClient.create(this.server.baseUrl())
          .view("orders-per-customer", String.class, Long.class);

  @AfterEach
  void stopServer() {
    this.server.close();
  }

  @Test
  void asksAgainAfterTheRetryAfterOfA503AndAnswersTheValue() {
    this.server
        .then(Reply.unavailable(503, 1))
        .then(Reply.json(200, "{\"key\": \"alice\", \"value\": 5}"));
    long started = System.nanoTime();
    assertThat(this.orders.get("alice")).contains(5L);
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .isGreaterThanOrEqualTo(Duration.ofMillis(950));
    assertThat(this.server.requests()).hasSize(2);
  }

  @Test
  void asksAgainAfterTheRetryAfterOfA429() {
    this.server
        .then(Reply.unavailable(429, 1))
        .then(Reply.json(200, "{\"key\": \"alice\", \"value\": 5}"));
    assertThat(this.orders.get("alice")).contains(5L);
    assertThat(this.server.requests()).hasSize(2);
  }

  @Test
  void refusesAtOnceWithTheProblemWhenTheWaitWouldPassTheDeadline() {
    this.server.always(Reply.unavailable(503, 30));
    long started = System.nanoTime();
    assertThatExceptionOfType(MatviewUnavailableException.class)
        .isThrownBy(() -> this.orders.withDeadline(Duration.ofSeconds(20)).get("alice"))
        .withMessage(
            "View 'orders-per-customer' could not answer within PT20S (answered 503, retry after"
                + " PT30S): Partition 1 of view 'orders' is restoring")
        .satisfies(
            ex -> {
              assertThat(ex.status()).isEqualTo(503);
              assertThat(ex.retryAfter()).isEqualTo(Duration.ofSeconds(30));
              assertThat(ex.problem())
                  .isEqualTo(
                      new MatviewProblem(
                          "https://matview.dev/problems/view-unavailable",
                          "View unavailable",
                          503,
                          "Partition 1 of view 'orders' is restoring",
                          "orders",
                          "alice",
                          1,
                          null,
                          30L));
            });
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
    assertThat(this.server.requests()).hasSize(1);
  }

  @Test
  void givesUpOnceTheNextWaitWouldPassTheDeadline() {
    this.server.always(Reply.unavailable(503, 1));
    long started = System.nanoTime();
    assertThatExceptionOfType(MatviewUnavailableException.class)
        .isThrownBy(() -> this.orders.withDeadline(Duration.ofMillis(2500)).get("alice"));
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    assertThat(took).isLessThan(Duration.ofMillis(2500));
    assertThat(this.server.requests()).hasSizeBetween(2, 3);
  }

  @Test
  void readsRetryAfterInSecondsOrAsAnHttpDate() {
    Instant now = Instant.parse("2026-05-01T12:00:00Z");
    assertThat(RetryAfter.of("3", now)).isEqualTo(Duration.ofSeconds(3));
    String date =
        DateTimeFormatter.RFC_1123_DATE_TIME.format(now.plusSeconds(5).atOffset(ZoneOffset.UTC));
    assertThat(RetryAfter.of(date, now)).isEqualTo(Duration.ofSeconds(5));
    assertThat(RetryAfter.of(null, now)).isEqualTo(RetryAfter.DEFAULT);
    assertThat(RetryAfter.of("soon", now)).isEqualTo(RetryAfter.DEFAULT);
    assertThat(RetryAfter.of("0", now)).isEqualTo(RetryAfter.MINIMUM);
    assertThat(RetryAfter.of("99999999999999999999", now)).isEqualTo(RetryAfter.DEFAULT);
  }
}
