package dev.matview.processes.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HttpProbeTests {

  private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();

  private final CountDownLatch released = new CountDownLatch(1);

  private final CompletableFuture<IOException> writeFailed = new CompletableFuture<>();

  private HttpServer server;

  private HttpProbe probe;

  @BeforeEach
  void startServer() throws IOException {
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    this.server.createContext("/", this::answer);
    this.server.start();
    this.probe = HttpProbe.of("http://127.0.0.1:" + this.server.getAddress().getPort());
  }

  @AfterEach
  void stopServer() {
    this.released.countDown();
    this.server.stop(0);
  }

  @Test
  void answersAnErrorStatusWithItsHeadersAndBodyInsteadOfThrowing() {
    HttpProbe.Answer answer = this.probe.get("/status/503");

    assertThat(answer.status()).isEqualTo(503);
    assertThat(answer.header("retry-after")).isEqualTo("1");
    assertThat(answer.header("Matview-Missing")).isEmpty();
    assertThat(answer.json().path("title").asString()).isEqualTo("Service Unavailable");
    assertThat(answer.describe())
        .startsWith("GET http://127.0.0.1:")
        .contains("/status/503 -> 503 {\"title\"");
  }

  @Test
  void sendsHeadersInPairsAndAStringBodyAsItIs() throws InterruptedException {
    HttpProbe.Answer answer =
        this.probe.post("/echo?a=%20b", "{\"keys\": [1]}", "Matview-Forwarded", "1");

    assertThat(answer.status()).isEqualTo(200);
    Received request = this.received.take();
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.target()).isEqualTo("/echo?a=%20b");
    assertThat(request.header("Matview-Forwarded")).isEqualTo("1");
    assertThat(request.header("Content-Type")).startsWith("application/json");
    assertThat(request.body()).isEqualTo("{\"keys\": [1]}");
    assertThat(request.header("Accept")).as("Accept").isEmpty();
    assertThat(request.header("Accept-Encoding")).as("Accept-Encoding").isEmpty();
  }

  @Test
  void writesABodyThatIsNoStringAsJson() throws InterruptedException {
    this.probe.post("/echo", Map.of("keys", List.of("shop-1")));

    assertThat(this.received.take().body()).isEqualTo("{\"keys\":[\"shop-1\"]}");
  }

  @Test
  void readsABodyThatIsNoJsonAsAMissingNode() {
    HttpProbe.Answer answer = this.probe.get("/text");

    assertThat(answer.body()).isEqualTo("plain words");
    assertThat(answer.json().isMissingNode()).isTrue();
  }

  @Test
  void failsWithTheConnectionsOwnExceptionWhenNoOneListens() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    HttpProbe nobody = HttpProbe.of("http://127.0.0.1:" + port);

    assertThatExceptionOfType(UncheckedIOException.class)
        .isThrownBy(() -> nobody.get("/"))
        .withMessage("GET http://127.0.0.1:" + port + "/ failed")
        .withCauseInstanceOf(ConnectException.class);
  }

  @Test
  void stopsWaitingForAnAnswerAfterItsTimeout() {
    HttpProbe impatient = this.probe.withTimeout(Duration.ofMillis(200));

    assertThat(impatient.timeout()).isEqualTo(Duration.ofMillis(200));
    assertThatExceptionOfType(UncheckedIOException.class)
        .isThrownBy(() -> impatient.get("/never"))
        .withCauseInstanceOf(HttpTimeoutException.class);
  }

  @Test
  void namesTheServerByHostAndPortAndEncodesValuesForAPath() {
    assertThat(HttpProbe.localhost(8080).address()).isEqualTo("localhost:8080");
    assertThat(HttpProbe.of("http://localhost:8080/shop").uri("/views")).hasPath("/shop/views");
    assertThat(HttpProbe.encode("a b/c")).isEqualTo("a%20b%2Fc");
  }

  @Test
  void sendsAnyMethodWithTheCallersContentTypeInPlaceOfJson() throws InterruptedException {
    HttpProbe.Answer answer =
        this.probe.send(
            "PATCH", "/echo", "a=%zz", "Content-Type", "application/x-www-form-urlencoded");

    assertThat(answer.status()).isEqualTo(200);
    Received request = this.received.take();
    assertThat(request.method()).isEqualTo("PATCH");
    assertThat(request.headers().get("Content-type"))
        .containsExactly("application/x-www-form-urlencoded");
    assertThat(request.body()).isEqualTo("a=%zz");
  }

  @Test
  void answersWithoutAThreadWaitingOnceTheServerAnswers() throws Exception {
    CompletableFuture<HttpProbe.Answer> answer = this.probe.sendAsync("GET", "/never", null);

    this.received.take();
    assertThat(answer).isNotDone();
    this.released.countDown();
    assertThat(answer.get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
  }

  @Test
  void stopsWaitingForABodyThatDoesNotEndAfterItsTimeoutAndClosesItsConnection() throws Exception {
    HttpProbe impatient = this.probe.withTimeout(Duration.ofMillis(500));

    assertThatExceptionOfType(UncheckedIOException.class)
        .isThrownBy(() -> impatient.get("/endless"))
        .withCauseInstanceOf(HttpTimeoutException.class)
        .satisfies(failure -> assertThat(HttpProbe.timedOut(failure)).isTrue());
    assertThat(this.writeFailed.get(10, TimeUnit.SECONDS)).isNotNull();
  }

  @Test
  void handsAStreamedBodyOutLineByLineAsItArrivesUntilItEnds() throws Exception {
    try (StreamedAnswer lines = this.probe.open("/lines", "Accept", "text/plain")) {
      assertThat(lines.status()).isEqualTo(200);
      assertThat(lines.header("content-type")).isEqualTo("text/plain;charset=UTF-8");
      assertThat(lines.next(Duration.ofSeconds(10))).isEqualTo("first");
      assertThatIllegalStateException()
          .isThrownBy(() -> lines.next(Duration.ofMillis(200)))
          .withMessageStartingWith("No line within PT0.2S of GET http://127.0.0.1:");
      this.released.countDown();
      assertThat(lines.next(Duration.ofSeconds(10))).isEqualTo("second");
      assertThat(lines.next(Duration.ofSeconds(10))).isNull();
      assertThat(lines.next(Duration.ofSeconds(10))).isNull();
    }
    assertThat(this.received.take().header("Accept")).isEqualTo("text/plain");
  }

  @Test
  void closesTheConnectionOfAStreamedAnswerItGoesAwayFrom() throws Exception {
    try (StreamedAnswer endless = this.probe.open("/endless")) {
      assertThat(endless.next(Duration.ofSeconds(10))).isEqualTo("more");
    }

    assertThat(this.writeFailed.get(10, TimeUnit.SECONDS)).isNotNull();
  }

  @Test
  void readsTheEventsOfAChangeStreamReadingPastHeartbeatsUntilItEnds() throws Exception {
    try (ServerSentEventReader events = this.probe.events("/events", "Last-Event-ID", "abc.0")) {
      assertThat(events.status()).isEqualTo(200);
      assertThat(events.next(Duration.ofSeconds(10)))
          .isEqualTo(new ServerSentEvent("value", "abc.0", "{\"key\":\"a\",\"value\":1}"));
      assertThat(events.next(Duration.ofSeconds(10)))
          .isEqualTo(new ServerSentEvent("reconnect", null, "{\"lastEventId\":\"abc.0\"}"));
      assertThat(events.next(Duration.ofSeconds(10)))
          .isEqualTo(new ServerSentEvent("message", null, "one\ntwo"));
      assertThat(events.nextOrEnd(Duration.ofSeconds(10)))
          .as("an event cut off before its blank line")
          .isNull();
      assertThatIllegalStateException().isThrownBy(() -> events.next(Duration.ofSeconds(10)));
    }
    Received request = this.received.take();
    assertThat(request.header("Accept")).isEqualTo("text/event-stream");
    assertThat(request.header("Last-Event-ID")).isEqualTo("abc.0");
  }

  @Test
  void refusesHeadersThatDoNotComeInPairs() {
    assertThatExceptionOfType(IllegalArgumentException.class)
        .isThrownBy(() -> this.probe.get("/", "Accept"));
  }

  private void answer(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    this.received.add(
        new Received(
            exchange.getRequestMethod(),
            exchange.getRequestURI().getRawPath()
                + (exchange.getRequestURI().getRawQuery() != null
                    ? "?" + exchange.getRequestURI().getRawQuery()
                    : ""),
            Map.copyOf(exchange.getRequestHeaders()),
            body));
    if (path.equals("/never")) {
      awaitRelease();
    }
    switch (path) {
      case "/status/503" -> {
        exchange.getResponseHeaders().add("Retry-After", "1");
        exchange.getResponseHeaders().add("Content-Type", "application/problem+json");
        respond(exchange, 503, "{\"title\":\"Service Unavailable\"}");
      }
      case "/lines" -> {
        OutputStream lines = streaming(exchange, "text/plain;charset=UTF-8");
        lines.write("first\n".getBytes(StandardCharsets.UTF_8));
        lines.flush();
        awaitRelease();
        lines.write("second\n".getBytes(StandardCharsets.UTF_8));
        exchange.close();
      }
      case "/endless" -> writeUntilTheClientGoesAway(streaming(exchange, "text/plain"));
      case "/events" -> {
        OutputStream events = streaming(exchange, "text/event-stream");
        events.write(
            ("event:value\nid:abc.0\ndata:{\"key\":\"a\",\"value\":1}\n\n"
                    + ":\n\n"
                    + "event: reconnect\ndata: {\"lastEventId\":\"abc.0\"}\n\n"
                    + "data:one\ndata:two\n\n"
                    + "event:value\nid:abc.1\ndata:{\"value\":2}\n")
                .getBytes(StandardCharsets.UTF_8));
        exchange.close();
      }
      case "/text" -> {
        exchange.getResponseHeaders().add("Content-Type", "text/plain;charset=UTF-8");
        respond(exchange, 200, "plain words");
      }
      default -> respond(exchange, 200, "{}");
    }
  }

  private static OutputStream streaming(HttpExchange exchange, String contentType)
      throws IOException {
    exchange.getResponseHeaders().add("Content-Type", contentType);
    exchange.sendResponseHeaders(200, 0);
    return exchange.getResponseBody();
  }

  private void writeUntilTheClientGoesAway(OutputStream body) {
    try {
      while (!this.released.await(10, TimeUnit.MILLISECONDS)) {
        body.write("more\n".getBytes(StandardCharsets.UTF_8));
        body.flush();
      }
    } catch (IOException ex) {
      this.writeFailed.complete(ex);
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
    }
  }

  private void awaitRelease() {
    try {
      this.released.await(1, TimeUnit.MINUTES);
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
    }
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  /** A request as the server saw it. */
  private record Received(
      String method, String target, Map<String, List<String>> headers, String body) {

    String header(String name) {
      return this.headers.entrySet().stream()
          .filter(entry -> entry.getKey().equalsIgnoreCase(name))
          .map(entry -> entry.getValue().get(0))
          .findFirst()
          .orElse("");
    }
  }
}
