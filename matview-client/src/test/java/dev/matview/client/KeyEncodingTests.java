package dev.matview.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.client.StubServer.Reply;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Tests of how {@link RemoteView} writes a key into a request against a real HTTP server: whole, as
 * the query parameter {@code key}, whatever it holds, so that a key no path carries arrives as it
 * was asked.
 */
class KeyEncodingTests {

  /** Keys that a path would split, normalize, refuse or read otherwise. */
  private static final List<String> KEYS =
      List.of("a/b", "/", "..", ".", "b\\s", "a b+c", "100%", "%2F", "x=1&y;z#f?g", "ü/東京", "-");

  private final StubServer server = StubServer.start();

  private final RemoteView<String, Long> orders =
      MatviewClient.create(this.server.baseUrl())
          .view("orders-per-customer", String.class, Long.class);

  @AfterEach
  void stopServer() {
    this.server.close();
  }

  @Test
  void asksEveryKeyWholeInTheQueryParameterKey() {
    this.server.always(Reply.json(200, "{\"key\": \"x\", \"value\": 1}"));
    for (String key : KEYS) {
      this.orders.get(key);
      StubServer.Request request = this.server.lastRequest();
      assertThat(request.rawPath()).isEqualTo("/views/orders-per-customer/key");
      assertThat(request.params("key")).as(request.rawQuery()).containsExactly(key);
      assertThat(request.rawQuery()).as("a plus would read as a space").doesNotContain("+");
    }
  }

  @Test
  void asksTheWindowsOfEveryKeyWholeInTheQueryBesideTheirRange() {
    this.server.always(Reply.json(200, "{\"key\": \"x\", \"windows\": []}"));
    Instant from = Instant.parse("2026-05-01T12:00:00Z");
    Instant to = Instant.parse("+10000-01-01T00:00:00Z");
    for (String key : KEYS) {
      assertThat(this.orders.windows(key, from, to)).isEmpty();
      StubServer.Request request = this.server.lastRequest();
      assertThat(request.rawPath()).isEqualTo("/views/orders-per-customer/key/windows");
      assertThat(request.params("key")).containsExactly(key);
      assertThat(request.params("from")).containsExactly(from.toString());
      assertThat(request.params("to")).containsExactly(to.toString());
    }
  }

  @Test
  void asksTheWindowsOfManyKeysInOneBatchAndReadsThemByKeyInTheOrderAsked() {
    this.server.then(
        Reply.json(
            200,
            """
            {"items": [
              {"key": "a/b", "windows": [
                {"start": "2026-05-01T12:00:00Z", "end": "2026-05-01T12:01:00Z", "value": 2}]},
              {"key": "..", "windows": []}]}"""));
    Instant from = Instant.parse("2026-05-01T12:00:00Z");
    Instant to = Instant.parse("2026-05-01T13:00:00Z");
    Answer<Map<String, List<Window<Long>>>> answer =
        this.orders.lookupAllWindows(List.of("a/b", ".."), from, to);
    assertThat(answer.value())
        .containsExactly(
            Map.entry("a/b", List.of(new Window<>(from, from.plusSeconds(60), 2L))),
            Map.entry("..", List.of()));
    StubServer.Request request = this.server.lastRequest();
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.rawPath()).isEqualTo("/views/orders-per-customer/batch");
    assertThat(request.params("from")).containsExactly(from.toString());
    assertThat(request.params("to")).containsExactly(to.toString());
    assertThat(request.body()).isEqualTo("{\"keys\":[\"a/b\",\"..\"]}");
  }
}
