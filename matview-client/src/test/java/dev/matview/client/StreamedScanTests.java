package dev.matview.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

import dev.matview.client.StubServer.HeldLines;
import dev.matview.client.StubServer.Lines;
import dev.matview.client.StubServer.Reply;
import java.io.EOFException;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Tests of the streamed scans of {@link RemoteView} against a real HTTP server that answers as
 * Matview does: what each request asks, how the lines are read as they arrive, and how a scan that
 * stopped early or broke off resumes.
 */
class StreamedScanTests {

  private static final String END = "{\"nextCursor\": null}";

  private final StubServer server = StubServer.start();

  private final MatviewClient client = MatviewClient.create(this.server.baseUrl());

  private final RemoteView<String, Long> orders =
      this.client.view("orders-per-customer", String.class, Long.class);

  @AfterEach
  void stopServer() {
    this.server.close();
  }

  @Test
  void streamsEveryItemOfTheRangeFromOneResponseWithoutALimit() {
    this.server.then(Lines.of(item("a", 1), item("b", 2), END));
    try (Stream<KeyValue<String, Long>> stream = this.orders.withPageSize(1).stream("a", "z")) {
      assertThat(stream.toList()).containsExactly(new KeyValue<>("a", 1L), new KeyValue<>("b", 2L));
    }
    assertThat(this.server.requests()).hasSize(1);
    StubServer.Request request = this.server.lastRequest();
    assertThat(request.rawPath()).isEqualTo("/views/orders-per-customer/keys");
    assertThat(request.rawQuery()).isEqualTo("from=a&to=z");
    assertThat(request.header("Accept")).contains("application/x-ndjson");
  }

  @Test
  void resumesAtTheCursorOfALastLineThatSaysTheServerStoppedEarly() {
    this.server
        .then(Lines.of(item("a", 1), item("b", 2), stoppedAt("c-1", 0)))
        .then(Lines.of(item("c", 3), END));
    try (Stream<KeyValue<String, Long>> stream = this.orders.stream("a", "z")) {
      assertThat(stream.map(KeyValue::key)).containsExactly("a", "b", "c");
    }
    assertThat(this.server.requests())
        .extracting(StubServer.Request::rawQuery)
        .containsExactly("from=a&to=z", "from=a&to=z&cursor=c-1");
  }

  @Test
  void throwsUnavailableWhenTheRetryAfterOfALastLineOutlastsTheDeadline() {
    this.server.then(Lines.of(item("a", 1), stoppedAt("c-1", 5)));
    try (Stream<KeyValue<String, Long>> stream =
        this.orders.withDeadline(Duration.ofSeconds(1)).stream()) {
      Iterator<KeyValue<String, Long>> items = stream.iterator();
      assertThat(items.next()).isEqualTo(new KeyValue<>("a", 1L));
      assertThatExceptionOfType(MatviewUnavailableException.class)
          .isThrownBy(items::hasNext)
          .satisfies(
              ex -> {
                assertThat(ex.status()).isEqualTo(503);
                assertThat(ex.retryAfter()).isEqualTo(Duration.ofSeconds(5));
                assertThat(ex.problem().is("view-unavailable")).isTrue();
                assertThat(ex.problem().partition()).isEqualTo(1);
              });
    }
    assertThat(this.server.requests()).hasSize(1);
  }

  @Test
  void resumesRightAfterTheLastWholeLineWhenTheConnectionBreaksOff() {
    String awkward = "d&e=f/ü";
    this.server
        .then(Lines.of(item("a", 1), item(awkward, 2)).thenBreakOff("{\"key\": \"g\", \"va"))
        .then(Lines.of(item("g", 3), END));
    try (Stream<KeyValue<String, Long>> stream = this.orders.stream("a", "z")) {
      assertThat(stream.toList())
          .containsExactly(
              new KeyValue<>("a", 1L), new KeyValue<>(awkward, 2L), new KeyValue<>("g", 3L));
    }
    List<StubServer.Request> requests = this.server.requests();
    assertThat(requests).hasSize(2);
    StubServer.Request resumed = requests.get(1);
    assertThat(resumed.rawPath()).isEqualTo("/views/orders-per-customer/keys");
    assertThat(resumed.params("from")).containsExactly("a");
    assertThat(resumed.params("to")).containsExactly("z");
    assertThat(resumed.params("afterKey")).containsExactly(awkward);
    assertThat(resumed.params("cursor")).isEmpty();
    assertThat(resumed.rawQuery()).startsWith("from=a&to=z&afterKey=").doesNotContain("/", "ü");
  }

  @Test
  void writesARecordKeyInAfterKeyAsInALookupPath() {
    RemoteView<CustomerQuantity, Long> byQuantity =
        this.client.view("orders-per-customer-quantity", CustomerQuantity.class, Long.class);
    this.server
        .then(
            Lines.of("{\"key\": {\"customer\": \"carol\", \"quantity\": 3}, \"value\": 1}")
                .thenBreakOff("{\"key\""))
        .then(Lines.of(END));
    try (Stream<KeyValue<CustomerQuantity, Long>> stream = byQuantity.stream()) {
      assertThat(stream.toList())
          .containsExactly(new KeyValue<>(new CustomerQuantity("carol", 3), 1L));
    }
    assertThat(this.server.lastRequest().params("afterKey"))
        .containsExactly("{\"customer\":\"carol\",\"quantity\":3}");
  }

  @Test
  void streamsTheWindowsOfAWindowedViewAndResumesAfterTheLastWindowOfABodyThatEndedEarly() {
    this.server
        .then(Lines.of(window("alice", "12:00"), window("alice", "12:01")))
        .then(Lines.of(window("bob", "12:00"), END));
    RemoteView<String, Long> perMinute =
        this.client.view("orders-per-minute", String.class, Long.class);
    Instant from = Instant.parse("2026-05-01T12:00:00Z");
    Instant to = Instant.parse("2026-05-01T13:00:00Z");
    try (Stream<KeyWindow<String, Long>> stream = perMinute.streamWindows(from, to)) {
      assertThat(stream.toList())
          .containsExactly(
              new KeyWindow<>("alice", at("12:00"), at("12:00").plusSeconds(60), 1L),
              new KeyWindow<>("alice", at("12:01"), at("12:01").plusSeconds(60), 1L),
              new KeyWindow<>("bob", at("12:00"), at("12:00").plusSeconds(60), 1L));
    }
    List<StubServer.Request> requests = this.server.requests();
    assertThat(requests).hasSize(2);
    assertThat(requests)
        .extracting(StubServer.Request::rawPath)
        .containsOnly("/views/orders-per-minute/windows");
    for (StubServer.Request request : requests) {
      assertThat(request.params("from")).containsExactly("2026-05-01T12:00:00Z");
      assertThat(request.params("to")).containsExactly("2026-05-01T13:00:00Z");
      assertThat(request.params("cursor")).isEmpty();
    }
    assertThat(requests.get(0).params("afterKey")).isEmpty();
    assertThat(requests.get(1).params("afterKey")).containsExactly("alice");
    assertThat(requests.get(1).params("afterStart")).containsExactly("2026-05-01T12:01:00Z");
  }

  @Test
  void throwsTheRefusalOfARequestRefusedBeforeAnythingIsStreamed() {
    this.server
        .then(
            Reply.problem(
                404,
                """
                {"type": "https://matview.dev/problems/unknown-view", "title": "Unknown view",
                 "status": 404, "detail": "There is no view named 'orders-per-customer'",
                 "view": "orders-per-customer"}"""))
        .then(
            Reply.problem(
                400,
                """
                {"type": "https://matview.dev/problems/invalid-request", "title": "Bad request",
                 "status": 400, "detail": "'from' is after 'to'", "parameter": "from"}"""));
    try (Stream<KeyValue<String, Long>> stream = this.orders.stream()) {
      assertThatExceptionOfType(MatviewUnknownViewException.class).isThrownBy(stream::toList);
    }
    try (Stream<KeyValue<String, Long>> stream = this.orders.stream("z", "a")) {
      assertThatExceptionOfType(MatviewBadRequestException.class)
          .isThrownBy(stream::toList)
          .withMessage("View 'orders-per-customer' answered 400: 'from' is after 'to'")
          .satisfies(ex -> assertThat(ex.problem().parameter()).isEqualTo("from"));
    }
  }

  @Test
  void retriesA503BeforeAnythingIsStreamed() {
    this.server.then(Reply.unavailable(503, 0)).then(Lines.of(item("a", 1), END));
    try (Stream<KeyValue<String, Long>> stream = this.orders.stream()) {
      assertThat(stream.toList()).containsExactly(new KeyValue<>("a", 1L));
    }
    assertThat(this.server.requests()).hasSize(2);
  }

  @Test
  void throwsWhenABodyWithNoItemEndsWithoutALastLineAndTheDeadlineAllowsNoWait() {
    this.server.then(Lines.of());
    try (Stream<KeyValue<String, Long>> stream =
        this.orders.withDeadline(Duration.ofMillis(500)).stream()) {
      assertThatExceptionOfType(MatviewClientException.class)
          .isThrownBy(stream::toList)
          .withMessageStartingWith(
              "A streamed scan of view 'orders-per-customer' was cut short with no item since it"
                  + " was asked")
          .satisfies(
              ex -> {
                assertThat(ex.status()).isZero();
                assertThat(ex.getCause()).isInstanceOf(EOFException.class);
              });
    }
    assertThat(this.server.requests()).hasSize(1);
  }

  @Test
  void throwsForASuccessThatIsNoStreamOfLines() {
    this.server.then(Reply.json(200, "{\"items\": [], \"nextCursor\": null}"));
    try (Stream<KeyValue<String, Long>> stream = this.orders.stream()) {
      assertThatExceptionOfType(MatviewClientException.class)
          .isThrownBy(stream::toList)
          .withMessage(
              "View 'orders-per-customer' answered 200 with application/json rather than a stream"
                  + " of lines (application/x-ndjson)");
    }
  }

  @Test
  @Timeout(30)
  void handsOnEachItemAsItArrivesAndClosesTheConnectionWhenTheStreamIsClosed() {
    HeldLines held = HeldLines.of(item("a", 1));
    this.server.then(held);
    Stream<KeyValue<String, Long>> stream = this.orders.stream();
    assertThat(stream.iterator().next()).isEqualTo(new KeyValue<>("a", 1L));
    stream.close();
    held.release();
    await().atMost(Duration.ofSeconds(20)).until(held::closedByClient);
  }

  private static String item(String key, long value) {
    return "{\"key\": \"%s\", \"value\": %d}".formatted(key, value);
  }

  private static String window(String key, String start) {
    return "{\"key\": \"%s\", \"start\": \"%s\", \"end\": \"%s\", \"value\": 1}"
        .formatted(key, at(start), at(start).plusSeconds(60));
  }

  private static Instant at(String time) {
    return Instant.parse("2026-05-01T" + time + ":00Z");
  }

  /** A last line that says the scan stopped at {@code cursor}: a partition was restoring. */
  private static String stoppedAt(String cursor, long retryAfterSeconds) {
    return """
        {"nextCursor": "%s", "problem": {"type": "https://matview.dev/problems/view-unavailable",\
         "title": "View unavailable", "status": 503,\
         "detail": "Partition 1 of view 'orders-per-customer' is restoring",\
         "view": "orders-per-customer", "partition": 1, "retryAfterSeconds": %d}}"""
        .formatted(cursor, retryAfterSeconds);
  }

  /**
   * A composite key, written as JSON.
   *
   * @param customer the customer
   * @param quantity the quantity
   */
  record CustomerQuantity(String customer, long quantity) {}
}
