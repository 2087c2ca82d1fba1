package dev.matview.peer.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ProtocolException;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The peer HTTP client against a real socket that answers with bytes each test scripts. */
class PeerHttpClientTests {

  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final PeerHttpClient client = new PeerHttpClient(null, TIMEOUT);

  private final List<AutoCloseable> closing = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    this.client.close();
    for (AutoCloseable closeable : this.closing) {
      closeable.close();
    }
  }

  @Test
  void readsABodyFramedByContentLengthAndKeepsTheConnection() throws Exception {
    ScriptedServer server =
        serve(
            (request) ->
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7"
                    + "\r\n\r\n{\"a\":1}");
    PeerHttpResponse first = get(server, "/views/v/keys/a?x=1");
    PeerHttpResponse second = get(server, "/views/v/keys/b");
    assertThat(first.status()).isEqualTo(200);
    assertThat(first.header("content-type")).isEqualTo("application/json");
    assertThat(new String(first.body(), StandardCharsets.UTF_8)).isEqualTo("{\"a\":1}");
    assertThat(second.status()).isEqualTo(200);
    assertThat(server.connections()).hasValue(1);
    assertThat(server.requests().get(0))
        .startsWith("GET /views/v/keys/a?x=1 HTTP/1.1\r\n")
        .contains("Host: 127.0.0.1:" + server.port() + "\r\n")
        .contains("Matview-Test: yes\r\n");
  }

  @Test
  void readsAChunkedBodyWithExtensionsAndTrailers() throws Exception {
    ScriptedServer server =
        serve(
            (request) ->
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "4;ext=1\r\nabcd\r\n3\r\nefg\r\n0\r\nTrailer: t\r\n\r\n");
    assertThat(new String(get(server, "/a").body(), StandardCharsets.UTF_8)).isEqualTo("abcdefg");
    assertThat(new String(get(server, "/b").body(), StandardCharsets.UTF_8)).isEqualTo("abcdefg");
    assertThat(server.connections()).hasValue(1);
  }

  @Test
  void skipsInterimAnswersAndReadsNoBodyWhereThereIsNone() throws Exception {
    ScriptedServer server =
        serve((request) -> "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n");
    PeerHttpResponse answer = get(server, "/a");
    assertThat(answer.status()).isEqualTo(204);
    assertThat(answer.body()).isEmpty();
  }

  @Test
  void readsABodyWithoutLengthToTheEndAndOpensANewConnectionAfterIt() throws Exception {
    ScriptedServer server =
        serve((request) -> "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end", true);
    assertThat(new String(get(server, "/a").body(), StandardCharsets.UTF_8))
        .isEqualTo("until the end");
    assertThat(new String(get(server, "/b").body(), StandardCharsets.UTF_8))
        .isEqualTo("until the end");
    assertThat(server.connections()).hasValue(2);
  }

  @Test
  void sendsAPostWithItsBodyAndLength() throws Exception {
    ScriptedServer server = serve((request) -> "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    byte[] body = "{\"keys\":[1]}".getBytes(StandardCharsets.UTF_8);
    PeerHttpResponse answer =
        this.client.exchange(
            "127.0.0.1", server.port(), "POST", "/views/v/batch", Map.of(), body, TIMEOUT);
    assertThat(answer.status()).isEqualTo(200);
    assertThat(server.requests().get(0))
        .startsWith("POST /views/v/batch HTTP/1.1\r\n")
        .contains("Content-Length: 12\r\n")
        .endsWith("\r\n\r\n{\"keys\":[1]}");
  }

  @Test
  void sendsARequestAgainOnANewConnectionWhenTheOtherSideClosedTheIdleOne() throws Exception {
    AtomicInteger answered = new AtomicInteger();
    ScriptedServer server =
        serve(
            (request) ->
                answered.incrementAndGet() == 1
                    ? "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n1"
                    : "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n2");
    get(server, "/a");
    server.closeOpenConnections();
    PeerHttpResponse again = get(server, "/b");
    assertThat(new String(again.body(), StandardCharsets.UTF_8)).isEqualTo("2");
    assertThat(server.connections()).hasValue(2);
  }

  @Test
  void failsWithATimeoutWhenTheAnswerDoesNotArriveInTime() throws Exception {
    ScriptedServer server = serve((request) -> null);
    assertThatExceptionOfType(SocketTimeoutException.class)
        .isThrownBy(
            () ->
                this.client.exchange(
                    "127.0.0.1",
                    server.port(),
                    "GET",
                    "/a",
                    Map.of(),
                    null,
                    Duration.ofMillis(200)));
  }

  @Test
  void failsToConnectWhereNothingListens() throws Exception {
    int port;
    try (ServerSocket unused = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = unused.getLocalPort();
    }
    int closedPort = port;
    assertThatExceptionOfType(ConnectException.class)
        .isThrownBy(
            () ->
                this.client.exchange("127.0.0.1", closedPort, "GET", "/", Map.of(), null, TIMEOUT));
  }

  @Test
  void refusesAnAnswerThatIsNotHttp() throws Exception {
    ScriptedServer server = serve((request) -> "SSH-2.0-OpenSSH\r\n\r\n");
    assertThatExceptionOfType(ProtocolException.class)
        .isThrownBy(() -> get(server, "/a"))
        .withMessageContaining("Not an HTTP/1.1 status line");
  }

  @Test
  void refusesABodyLongerThanItsLimitWithoutReadingIt() throws Exception {
    ScriptedServer server =
        serve((request) -> "HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\n");
    assertThatExceptionOfType(ProtocolException.class)
        .isThrownBy(() -> get(server, "/a"))
        .withMessageContaining("body is longer than");
  }

  @Test
  void refusesAChunkSizeBeyondTheLimit() throws Exception {
    ScriptedServer server =
        serve((request) -> "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffff\r\n");
    assertThatExceptionOfType(ProtocolException.class)
        .isThrownBy(() -> get(server, "/a"))
        .withMessageContaining("body is longer than");
  }

  @Test
  void refusesHeadersThatWouldSplitTheRequest() {
    assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                this.client.exchange(
                    "127.0.0.1",
                    1,
                    "GET",
                    "/a",
                    Map.of("X-Test", "a\r\nInjected: yes"),
                    null,
                    TIMEOUT))
        .withMessageContaining("X-Test");
    assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                this.client.exchange(
                    "127.0.0.1", 1, "GET", "/a b HTTP/1.1\r\n", Map.of(), null, TIMEOUT));
  }

  private PeerHttpResponse get(ScriptedServer server, String target) throws IOException {
    return this.client.exchange(
        "127.0.0.1", server.port(), "GET", target, Map.of("Matview-Test", "yes"), null, TIMEOUT);
  }

  private ScriptedServer serve(ScriptedServer.Answers answers) throws IOException {
    return serve(answers, false);
  }

  private ScriptedServer serve(ScriptedServer.Answers answers, boolean closeAfterAnswer)
      throws IOException {
    ScriptedServer server =
        new ScriptedServer(
            new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), answers, closeAfterAnswer);
    this.closing.add(server);
    return server;
  }
}
