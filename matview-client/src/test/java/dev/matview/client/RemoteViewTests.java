package dev.matview.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.matview.client.StubServer.Reply;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.web.client.RestClient;

/**
 * Tests of {@link RemoteView} against a real HTTP server that answers as Matview does: what each
 * call asks, and how it reads the answer.
 */
class RemoteViewTests {

  private final StubServer server = StubServer.start();

  private final MatviewClient client = MatviewClient.create(this.server.baseUrl());

  private final RemoteView<String, Long> orders =
      this.client.view("orders-per-customer", String.class, Long.class);

  @AfterEach
  void stopServer() {
    this.server.close();
  }

  @Test
  void readsAValueWithWhatTheHeadersSayOfItsReplica() {
    this.server.then(
        Reply.json(200, "{\"key\": \"alice\", \"value\": 5}")
            .with("Matview-Served-By", "host-1:8080")
            .with("Matview-Replica", "standby")
            .with("Matview-Offset-Lag", "12"));
    Answer<Optional<Long>> answer = this.orders.lookup("alice");
    assertThat(answer.value()).contains(5L);
    assertThat(answer.metadata())
        .isEqualTo(new AnswerMetadata("host-1:8080", "standby", 12L, null));
    assertThat(answer.metadata().standby()).isTrue();
    StubServer.Request request = this.server.lastRequest();
    assertThat(request.method()).isEqualTo("GET");
    assertThat(request.rawPath()).isEqualTo("/views/orders-per-customer/key");
    assertThat(request.params("key")).containsExactly("alice");
    assertThat(request.header("Accept")).contains("application/json");
  }

  @Test
  void answersEmptyForAKeyWithoutAValue() {
    this.server.then(
        Reply.problem(
                404,
                """
                {"type": "https://matview.dev/problems/key-not-found", "title": "Key not found",
                 "status": 404, "detail": "View 'orders-per-customer' has no value for key 'bob'",
                 "view": "orders-per-customer", "key": "bob"}""")
            .with("Matview-Served-By", "host-2:8080"));
    Answer<Optional<Long>> answer = this.orders.lookup("bob");
    assertThat(answer.value()).isEmpty();
    assertThat(answer.metadata().servedBy()).isEqualTo("host-2:8080");
  }

  @Test
  void writesNumbersAndUuidsAsTheyPrintAndRecordKeysAsJson() {
    this.server.always(Reply.json(200, "{\"key\": 1, \"value\": 1}"));
    this.client.view("by-number", Long.class, Long.class).get(-42L);
    assertThat(this.server.lastRequest().params("key")).containsExactly("-42");
    UUID id = UUID.randomUUID();
    this.client.view("by-id", UUID.class, Long.class).get(id);
    assertThat(this.server.lastRequest().params("key")).containsExactly(id.toString());
    this.client
        .view("by-customer-quantity", CustomerQuantity.class, Long.class)
        .get(new CustomerQuantity("carol", 3));
    assertThat(this.server.lastRequest().params("key"))
        .containsExactly("{\"customer\":\"carol\",\"quantity\":3}");
  }

  @Test
  void readsValuesOfAGenericType() {
    this.server.then(
        Reply.json(
            200,
            "{\"key\": \"alice\", \"value\": {\"total\": 12345678901234567.89, \"max\": 10.00}}"));
    RemoteView<String, Map<String, BigDecimal>> revenue =
        this.client.view(
            "revenue-per-customer",
            String.class,
            new ParameterizedTypeReference<Map<String, BigDecimal>>() {});
    Map<String, BigDecimal> value = revenue.get("alice").orElseThrow();
    assertThat(value.get("total")).isEqualTo(new BigDecimal("12345678901234567.89"));
    assertThat(value.get("max")).isEqualTo(new BigDecimal("10.00"));
  }

  @Test
  void readsTheWindowsOfAKeyWithinTheBoundsAsked() {
    this.server.then(
        Reply.json(
            200,
            """
            {"key": "alice", "windows": [
              {"start": "2026-05-01T12:00:00Z", "end": "2026-05-01T12:01:00Z", "value": 2},
              {"start": "2026-05-01T12:01:00Z", "end": "2026-05-01T12:02:00Z", "value": 3}]}"""));
    Instant from = Instant.parse("2026-05-01T12:00:00Z");
    Instant to = Instant.parse("2026-05-01T13:00:00Z");
    List<Window<Long>> windows =
        this.client.view("orders-per-minute", String.class, Long.class).windows("alice", from, to);
    assertThat(windows)
        .containsExactly(
            new Window<>(from, Instant.parse("2026-05-01T12:01:00Z"), 2L),
            new Window<>(
                Instant.parse("2026-05-01T12:01:00Z"), Instant.parse("2026-05-01T12:02:00Z"), 3L));
    StubServer.Request request = this.server.lastRequest();
    assertThat(request.rawPath()).isEqualTo("/views/orders-per-minute/key/windows");
    assertThat(request.params("key")).containsExactly("alice");
    assertThat(request.params("from")).containsExactly("2026-05-01T12:00:00Z");
    assertThat(request.params("to")).containsExactly("2026-05-01T13:00:00Z");
  }

  @Test
  void asksABatchInOneCallAndReadsItsItemsInTheOrderAsked() {
    this.server.always(
        Reply.json(
            200,
            """
            {"items": [{"key": "bob", "found": false, "value": null},
                       {"key": "alice", "found": true, "value": 5}]}"""));
    assertThat(this.orders.lookupAll(List.of("bob", "alice")).value())
        .containsExactly(new BatchItem<>("bob", false, null), new BatchItem<>("alice", true, 5L));
    assertThat(this.orders.getAll(List.of("bob", "alice"))).containsExactly(Map.entry("alice", 5L));
    StubServer.Request request = this.server.lastRequest();
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.rawPath()).isEqualTo("/views/orders-per-customer/batch");
    assertThat(request.header("Content-Type")).startsWith("application/json");
    assertThat(request.body()).isEqualTo("{\"keys\":[\"bob\",\"alice\"]}");
  }

  @Test
  void scansPageAfterPageFollowingTheCursorOnlyAsTheStreamIsRead() {
    Reply first =
        Reply.json(
            200,
            """
            {"items": [{"key": "a", "value": 1}, {"key": "b", "value": 2}],
             "nextCursor": "c-1"}""");
    Reply last =
        Reply.json(200, "{\"items\": [{\"key\": \"c\", \"value\": 3}], \"nextCursor\": null}");
    RemoteView<String, Long> paged = this.orders.withPageSize(2);
    this.server.then(first);
    assertThat(paged.scan("a", "z").limit(1).toList()).containsExactly(new KeyValue<>("a", 1L));
    assertThat(this.server.requests()).hasSize(1);
    this.server.then(first).then(last);
    List<KeyValue<String, Long>> all = paged.scan("a", "z").toList();
    assertThat(all).extracting(KeyValue::key).containsExactly("a", "b", "c");
    List<StubServer.Request> requests = this.server.requests();
    assertThat(requests).hasSize(3);
    StubServer.Request firstPage = requests.get(1);
    assertThat(firstPage.rawPath()).isEqualTo("/views/orders-per-customer/keys");
    assertThat(firstPage.params("limit")).containsExactly("2");
    assertThat(firstPage.params("from")).containsExactly("a");
    assertThat(firstPage.params("to")).containsExactly("z");
    assertThat(firstPage.params("cursor")).isEmpty();
    assertThat(requests.get(2).params("cursor")).containsExactly("c-1");
  }

  @Test
  void scansTheWindowsOfAWindowedView() {
    this.server.then(
        Reply.json(
            200,
            """
            {"items": [{"key": "alice", "start": "2026-05-01T12:00:00Z",
                        "end": "2026-05-01T12:01:00Z", "value": 2}], "nextCursor": null}"""));
    List<KeyWindow<String, Long>> windows =
        this.client
            .view("orders-per-minute", String.class, Long.class)
            .scanWindows(null, null)
            .toList();
    assertThat(windows)
        .containsExactly(
            new KeyWindow<>(
                "alice",
                Instant.parse("2026-05-01T12:00:00Z"),
                Instant.parse("2026-05-01T12:01:00Z"),
                2L));
    assertThat(this.server.lastRequest().rawPath()).isEqualTo("/views/orders-per-minute/windows");
  }

  @Test
  void sendsTheStaleReadOptionsOfTheHandle() {
    this.server.always(Reply.json(200, "{\"key\": \"alice\", \"value\": 5}"));
    this.orders.withStaleReads(true).withMaxLag(500).get("alice");
    assertThat(this.server.lastRequest().params("allowStale")).containsExactly("true");
    assertThat(this.server.lastRequest().params("maxLag")).containsExactly("500");
    this.orders.get("alice");
    assertThat(this.server.lastRequest().rawQuery()).isEqualTo("key=alice");
  }

  @Test
  void callsBelowTheBasePathOfTheService() {
    this.server.always(Reply.json(200, "{\"key\": \"alice\", \"value\": 5}"));
    MatviewClient other =
        MatviewClient.builder(RestClient.create(this.server.baseUrl()))
            .basePath("api/views/")
            .build();
    other.view("orders-per-customer", String.class, Long.class).get("alice");
    assertThat(this.server.lastRequest().rawPath()).isEqualTo("/api/views/orders-per-customer/key");
  }

  @Test
  void saysWhatItCouldNotReadInAnAnswer() {
    this.server.then(Reply.json(200, "{\"key\": \"alice\", \"value\": \"five\"}"));
    assertThatExceptionOfType(MatviewClientException.class)
        .isThrownBy(() -> this.orders.get("alice"))
        .withMessageStartingWith(
            "View 'orders-per-customer' answered 200 with a body that cannot be read as")
        .satisfies(ex -> assertThat(ex.status()).isEqualTo(200));
  }

  @Test
  void refusesOptionsOutOfRangeWhenTheHandleIsMade() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.orders.withDeadline(Duration.ZERO))
        .withMessage("deadline must be positive, was PT0S");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.orders.withPageSize(0))
        .withMessage("pageSize must be positive, was 0");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.orders.withMaxLag(-1))
        .withMessage("maxLag must not be negative, was -1");
    assertThat(this.server.requests()).isEmpty();
  }

  /**
   * A composite key, written as JSON.
   *
   * @param customer the customer
   * @param quantity the quantity
   */
  record CustomerQuantity(String customer, long quantity) {}
}
