package dev.matview.peer.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ProtocolException;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The peer HTTP client that waits for answers without a thread, against a real socket that answers
 * with bytes each test scripts.
 */
class PeerAsyncHttpClientTests {

  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final List<AutoCloseable> closing = new ArrayList<>();

  private final PeerAsyncHttpClient client = client(PeerHttpSettings.of(TIMEOUT, 512, 512));

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable closeable : this.closing) {
      closeable.close();
    }
  }

  @Test
  void readsABodyFramedByContentLengthAndKeepsConnectionsAlive() throws Exception {
    ScriptedServer server =
        serve(
            (request) ->
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7"
                    + "\r\n\r\n{\"a\":1}");
    PeerHttpResponse first = get(server, "/views/v/keys/a%2Fb?x=1").get();
    for (int i = 0; i < 20; i++) {
      assertThat(get(server, "/views/v/keys/b" + i).get().status()).isEqualTo(200);
    }
    assertThat(first.status()).isEqualTo(200);
    assertThat(first.header("content-type")).isEqualTo("application/json");
    assertThat(new String(first.body(), StandardCharsets.UTF_8)).isEqualTo("{\"a\":1}");
    assertThat(server.connections())
        .as("connections for 21 requests one after another, each handed back as it is answered")
        .hasValueLessThanOrEqualTo(5);
    assertThat(server.requests().get(0))
        .startsWith("GET /views/v/keys/a%2Fb?x=1 HTTP/1.1\r\n")
        .contains("Host: 127.0.0.1:" + server.port() + "\r\n")
        .contains("Matview-Test: yes\r\n")
        .doesNotContain("Cookie");
  }

  @Test
  void readsAChunkedBody() throws Exception {
    ScriptedServer server =
        serve(
            (request) ->
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "4;ext=1\r\nabcd\r\n3\r\nefg\r\n0\r\n\r\n");
    assertThat(new String(get(server, "/a").get().body(), StandardCharsets.UTF_8))
        .isEqualTo("abcdefg");
  }

  @Test
  void sendsAPostWithItsBodyAndLength() throws Exception {
    ScriptedServer server = serve((request) -> "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    byte[] body = "{\"keys\":[1]}".getBytes(StandardCharsets.UTF_8);
    PeerHttpResponse answer =
        this.client
            .exchange("127.0.0.1", server.port(), "POST", "/views/v/batch", Map.of(), body, TIMEOUT)
            .get();
    assertThat(answer.status()).isEqualTo(200);
    assertThat(server.requests().get(0))
        .startsWith("POST /views/v/batch HTTP/1.1\r\n")
        .contains("Content-Length: 12\r\n")
        .endsWith("\r\n\r\n{\"keys\":[1]}");
  }

  @Test
  void waitsForHundredsOfAnswersAtOnceOnOneThread() throws Exception {
    CountDownLatch answer = new CountDownLatch(1);
    ScriptedServer server =
        serve(
            (request) -> {
              try {
                if (!request.startsWith("GET /first ")) {
                  answer.await(30, TimeUnit.SECONDS);
                }
              } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
              }
              return "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
            });
    // the test's other client has started its threads once it has been answered
    get(server, "/first").get(30, TimeUnit.SECONDS);
    Set<String> others = ioThreads();
    PeerAsyncHttpClient waitingClient = client(PeerHttpSettings.of(TIMEOUT, 512, 512));
    get(waitingClient, server, "/first").get(30, TimeUnit.SECONDS);
    Set<String> own = new HashSet<>(ioThreads());
    own.removeAll(others);
    assertThat(own)
        .as("the client's threads: its I/O thread and the evictor of its idle connections")
        .hasSizeBetween(1, 2);
    List<CompletableFuture<PeerHttpResponse>> waiting = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      waiting.add(get(waitingClient, server, "/wait/" + i));
    }
    await("300 requests reach the server")
        .atMost(Duration.ofSeconds(30))
        .until(() -> server.requests().size() == 302);
    assertThat(waiting).noneMatch(CompletableFuture::isDone);
    Set<String> added = new HashSet<>(ioThreads());
    added.removeAll(others);
    assertThat(added)
        .as("I/O threads made since the client was, while 300 requests wait")
        .isEqualTo(own);
    answer.countDown();
    for (CompletableFuture<PeerHttpResponse> answered : waiting) {
      assertThat(answered.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
    }
  }

  @Test
  void failsWithATimeoutWhenTheAnswerDoesNotArriveInTime() throws Exception {
    ScriptedServer server = serve((request) -> null);
    CompletableFuture<PeerHttpResponse> answer =
        this.client.exchange(
            "127.0.0.1", server.port(), "GET", "/a", Map.of(), null, Duration.ofMillis(200));
    assertThat(failure(answer)).isInstanceOf(SocketTimeoutException.class);
  }

  @Test
  void failsToConnectWhereNothingListens() throws Exception {
    int port;
    try (ServerSocket unused = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = unused.getLocalPort();
    }
    assertThat(
            failure(this.client.exchange("127.0.0.1", port, "GET", "/", Map.of(), null, TIMEOUT)))
        .isInstanceOf(ConnectException.class);
  }

  @Test
  void failsToConnectToAHostThatHasNoAddress() {
    assertThat(
            failure(
                this.client.exchange(
                    "no-such-host.invalid", 8080, "GET", "/", Map.of(), null, TIMEOUT)))
        .isInstanceOf(ConnectException.class);
  }

  @Test
  void refusesABodyLongerThanItsLimitWithoutWaitingForIt() throws Exception {
    ScriptedServer server =
        serve((request) -> "HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\n");
    assertThat(failure(get(server, "/a")))
        .isInstanceOf(ProtocolException.class)
        .hasMessage("A response's body is longer than 67108864 bytes");
  }

  @Test
  void refusesAChunkedBodyLongerThanItsLimitAndUsesTheConnectionNoMore() throws Exception {
    AtomicInteger answered = new AtomicInteger();
    ScriptedServer server =
        serve(
            (request) ->
                answered.incrementAndGet() == 1
                    ? "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "10\r\n0123456789abcdef\r\n1\r\nx\r\n0\r\n\r\n"
                    : "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
    PeerAsyncHttpClient strict =
        client(
            new PeerHttpSettings(
                TIMEOUT,
                4,
                8,
                PeerHttpSettings.MAX_IDLE,
                PeerHttpSettings.VALIDATE_AFTER_INACTIVITY,
                1024,
                16));
    assertThat(failure(get(strict, server, "/a")))
        .isInstanceOf(ProtocolException.class)
        .hasMessage("A response's body is longer than 16 bytes");
    assertThat(new String(get(strict, server, "/b").get().body(), StandardCharsets.UTF_8))
        .isEqualTo("ok");
    assertThat(server.connections()).hasValue(2);
  }

  /** The names of the I/O threads of every such client in this JVM, other tests' included. */
  private static Set<String> ioThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .map(Thread::getName)
        .filter((name) -> name.startsWith("matview-peer-io-"))
        .collect(Collectors.toSet());
  }

  private CompletableFuture<PeerHttpResponse> get(ScriptedServer server, String target) {
    return get(this.client, server, target);
  }

  private static CompletableFuture<PeerHttpResponse> get(
      PeerAsyncHttpClient client, ScriptedServer server, String target) {
    return client.exchange(
        "127.0.0.1", server.port(), "GET", target, Map.of("Matview-Test", "yes"), null, TIMEOUT);
  }

  private static Throwable failure(CompletableFuture<PeerHttpResponse> answer) {
    try {
      answer.get(30, TimeUnit.SECONDS);
    } catch (ExecutionException ex) {
      return ex.getCause();
    } catch (Exception ex) {
      throw new AssertionError("The request neither failed nor answered in time", ex);
    }
    throw new AssertionError("The request was answered");
  }

  private PeerAsyncHttpClient client(PeerHttpSettings settings) {
    PeerAsyncHttpClient client = new PeerAsyncHttpClient(null, settings, Exchanges.ioThreads());
    this.closing.add(client);
    return client;
  }

  private ScriptedServer serve(ScriptedServer.Answers answers) throws IOException {
    ScriptedServer server =
        new ScriptedServer(
            new ServerSocket(0, 500, InetAddress.getLoopbackAddress()), answers, false);
    this.closing.add(server);
    return server;
  }
}
