package dev.matview.processes.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RawHttpTests {

  private final BlockingQueue<String> targets = new LinkedBlockingQueue<>();

  private final CountDownLatch released = new CountDownLatch(1);

  private HttpServer server;

  private RawHttp raw;

  @BeforeEach
  void startServer() throws IOException {
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    this.server.createContext("/", this::answer);
    this.server.start();
    this.raw = new RawHttp(this.server.getAddress().getPort(), Duration.ofSeconds(10));
  }

  @AfterEach
  void stopServer() {
    this.released.countDown();
    this.server.stop(0);
  }

  @Test
  void writesTheRequestAsGivenAndReadsTheWholeAnswer() throws InterruptedException {
    RawHttp.Answer badEscape = this.raw.send("GET", "/echo?a=%zz", Map.of(), new byte[0]);
    assertThat(badEscape.status()).as("the server's own refusal of a bad escape").isEqualTo(400);

    RawHttp.Answer answer =
        this.raw.send(
            "POST",
            "/echo?a=b%20c",
            Map.of("Content-Type", "text/plain"),
            "body".getBytes(StandardCharsets.UTF_8));

    assertThat(answer.failure()).isNull();
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.header("CONTENT-TYPE")).isEqualTo("text/plain");
    assertThat(answer.text()).isEqualTo("body");
    assertThat(this.targets.take()).isEqualTo("POST /echo?a=b%20c");
  }

  @Test
  void readsAStreamedAnswerOffItsSocketWhenTheTestAsks() throws InterruptedException {
    try (RawStream stream = this.raw.open("/lines", Map.of("Accept", "text/plain"), 4096)) {
      assertThat(stream.status()).isEqualTo(200);
      assertThat(stream.next(Duration.ofSeconds(10))).isEqualTo("first");
      assertThatIllegalStateException().isThrownBy(() -> stream.next(Duration.ofMillis(200)));
      this.released.countDown();
      assertThat(stream.rest()).isEqualTo("second\nthird\n");
      assertThat(stream.next(Duration.ofSeconds(1))).isNull();
    }
    assertThat(this.targets.take()).isEqualTo("GET /lines");
  }

  private void answer(HttpExchange exchange) throws IOException {
    this.targets.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
    byte[] body = exchange.getRequestBody().readAllBytes();
    exchange.getResponseHeaders().add("Content-Type", "text/plain");
    if (exchange.getRequestURI().getPath().equals("/lines")) {
      exchange.sendResponseHeaders(200, 0);
      OutputStream lines = exchange.getResponseBody();
      lines.write("first\n".getBytes(StandardCharsets.UTF_8));
      lines.flush();
      awaitRelease();
      lines.write("second\nthird\n".getBytes(StandardCharsets.UTF_8));
    } else {
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
    }
    exchange.close();
  }

  private void awaitRelease() {
    try {
      this.released.await(1, TimeUnit.MINUTES);
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
    }
  }
}
