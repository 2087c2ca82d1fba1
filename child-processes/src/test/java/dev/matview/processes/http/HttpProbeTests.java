package dev.matview.processes.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HttpProbeTests {

  private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();

  private final CountDownLatch released = new CountDownLatch(1);

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
      case "/text" -> {
        exchange.getResponseHeaders().add("Content-Type", "text/plain;charset=UTF-8");
        respond(exchange, 200, "plain words");
      }
      default -> respond(exchange, 200, "{}");
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
