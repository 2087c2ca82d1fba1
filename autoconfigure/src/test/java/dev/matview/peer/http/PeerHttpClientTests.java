package dev.matview.peer.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIOException;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

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

  private final List<AutoCloseable> closing = new ArrayList<>();

  private final PeerHttpClient client = client(PeerHttpSettings.of(TIMEOUT, 4, 8));

  @AfterEach
  void close() throws Exception {
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
        .contains("Matview-Test: yes\r\n")
        .doesNotContain("User-Agent", "Accept-Encoding");
  }

  @Test
  void sendsTheTargetAsItIsEncoded() throws Exception {
    ScriptedServer server = serve((request) -> "HTTP/1.1 204 No Content\r\n\r\n");
    String target = "/views/v/keys/a%2Fb%25c%2Bd%3Be%20f%3Fg%23h%26i%3Dj%C3%BC?to=%2B10000";
    get(server, target);
    assertThat(server.requests().get(0)).startsWith("GET " + target + " HTTP/1.1\r\n");
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
    PeerHttpResponse answer = post(this.client, server);
    assertThat(answer.status()).isEqualTo(200);
    assertThat(server.requests().get(0))
        .startsWith("POST /views/v/batch HTTP/1.1\r\n")
        .contains("Content-Length: 12\r\n")
        .endsWith("\r\n\r\n{\"keys\":[1]}");
  }

  @Test
  void passesAnAnswerOfServiceUnavailableOnWithoutAskingAgain() throws Exception {
    ScriptedServer server =
        serve(
            (request) ->
                "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 2\r\n\r\n{}");
    assertThat(get(server, "/a").status()).isEqualTo(503);
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void passesARedirectOnWithoutFollowingIt() throws Exception {
    ScriptedServer server =
        serve(
            (request) ->
                "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:1/elsewhere\r\n"
                    + "Content-Length: 0\r\n\r\n");
    PeerHttpResponse answer = get(server, "/a");
    assertThat(answer.status()).isEqualTo(302);
    assertThat(answer.header("Location")).isEqualTo("http://127.0.0.1:1/elsewhere");
  }

  @Test
  void passesAChallengeOnWithoutAnsweringIt() throws Exception {
    ScriptedServer server =
        serve(
            (request) ->
                "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"x\"\r\n"
                    + "Content-Length: 0\r\n\r\n");
    assertThat(get(server, "/a").status()).isEqualTo(401);
    assertThat(server.requests()).singleElement().asString().doesNotContain("Authorization");
  }

  @Test
  void keepsNoCookieOfOneAnswerForTheNextRequest() throws Exception {
    ScriptedServer server =
        serve(
            (request) ->
                "HTTP/1.1 200 OK\r\nSet-Cookie: SESSION=abc; Path=/\r\nContent-Length: 0\r\n\r\n");
    get(server, "/a");
    get(server, "/b");
    assertThat(server.requests().get(1)).doesNotContainIgnoringCase("Cookie");
  }

  @Test
  void sendsAGetAgainOnANewConnectionWhenTheOtherSideClosedTheIdleOne() throws Exception {
    AtomicInteger answered = new AtomicInteger();
    ScriptedServer server =
        serve(
            (request) ->
                answered.incrementAndGet() == 1
                    ? "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n1"
                    : "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n2");
    PeerHttpClient unchecking = client(idleConnectionsNeverChecked());
    get(unchecking, server, "/a");
    server.closeOpenConnections();
    PeerHttpResponse again = get(unchecking, server, "/b");
    assertThat(new String(again.body(), StandardCharsets.UTF_8)).isEqualTo("2");
    assertThat(server.connections()).hasValue(2);
  }

  @Test
  void neverSendsAPostAgainWhenTheOtherSideClosedTheIdleConnection() throws Exception {
    ScriptedServer server = serve((request) -> "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    PeerHttpClient unchecking = client(idleConnectionsNeverChecked());
    get(unchecking, server, "/a");
    server.closeOpenConnections();
    assertThatIOException()
        .isThrownBy(() -> post(unchecking, server))
        .isNotInstanceOfAny(ConnectException.class, SocketTimeoutException.class);
    assertThat(server.connections()).hasValue(1);
    assertThat(server.requests()).noneMatch((request) -> request.startsWith("POST"));
  }

  @Test
  void sendsAPostOnANewConnectionWhenItFindsTheIdleOneClosedBeforeSending() throws Exception {
    ScriptedServer server = serve((request) -> "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    PeerHttpClient checking =
        client(
            settings(
                Duration.ZERO, PeerHttpSettings.MAX_HEAD_BYTES, PeerHttpSettings.MAX_BODY_BYTES));
    get(checking, server, "/a");
    server.closeOpenConnections();
    assertThat(post(checking, server).status()).isEqualTo(200);
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
  void failsToConnectToAHostThatHasNoAddress() {
    assertThatExceptionOfType(ConnectException.class)
        .isThrownBy(
            () ->
                this.client.exchange(
                    "no-such-host.invalid", 8080, "GET", "/", Map.of(), null, TIMEOUT));
  }

  @Test
  void refusesAnAnswerThatIsNotHttp() throws Exception {
    ScriptedServer server = serve((request) -> "SSH-2.0-OpenSSH\r\n\r\n");
    assertThatIOException()
        .isThrownBy(() -> get(server, "/a"))
        .isNotInstanceOfAny(ConnectException.class, SocketTimeoutException.class);
  }

  @Test
  void refusesABodyLongerThanItsLimitWithoutWaitingForIt() throws Exception {
    ScriptedServer server =
        serve((request) -> "HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\n");
    PeerHttpClient patient = client(PeerHttpSettings.of(Duration.ofMinutes(1), 4, 8));
    assertTimeoutPreemptively(
        Duration.ofSeconds(30),
        () ->
            assertThatExceptionOfType(ProtocolException.class)
                .isThrownBy(
                    () ->
                        patient.exchange(
                            "127.0.0.1",
                            server.port(),
                            "GET",
                            "/a",
                            Map.of(),
                            null,
                            Duration.ofMinutes(1)))
                .withMessage("A response's body is longer than 67108864 bytes"));
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
    PeerHttpClient strict = client(withLimits(1024, 16));
    assertThatExceptionOfType(ProtocolException.class)
        .isThrownBy(() -> get(strict, server, "/a"))
        .withMessage("A response's body is longer than 16 bytes");
    assertThat(new String(get(strict, server, "/b").body(), StandardCharsets.UTF_8))
        .isEqualTo("ok");
    assertThat(server.connections()).hasValue(2);
  }

  @Test
  void refusesAHeadOfManyShortHeadersLongerThanItsLimit() throws Exception {
    StringBuilder headers = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      headers.append("X-Header-").append(i).append(": a\r\n");
    }
    ScriptedServer server =
        serve((request) -> "HTTP/1.1 200 OK\r\n" + headers + "Content-Length: 0\r\n\r\n");
    assertThat(get(server, "/a").status()).as("within the default limit").isEqualTo(200);
    assertThatExceptionOfType(ProtocolException.class)
        .isThrownBy(() -> get(client(withLimits(1024, 1024)), server, "/a"))
        .withMessage("A response's head is longer than 1024 bytes");
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
    return get(this.client, server, target);
  }

  private static PeerHttpResponse get(PeerHttpClient client, ScriptedServer server, String target)
      throws IOException {
    return client.exchange(
        "127.0.0.1", server.port(), "GET", target, Map.of("Matview-Test", "yes"), null, TIMEOUT);
  }

  private static PeerHttpResponse post(PeerHttpClient client, ScriptedServer server)
      throws IOException {
    byte[] body = "{\"keys\":[1]}".getBytes(StandardCharsets.UTF_8);
    return client.exchange(
        "127.0.0.1", server.port(), "POST", "/views/v/batch", Map.of(), body, TIMEOUT);
  }

  /** Settings under which an idle connection is taken again without a check that it is open. */
  private static PeerHttpSettings idleConnectionsNeverChecked() {
    return settings(
        Duration.ofHours(1), PeerHttpSettings.MAX_HEAD_BYTES, PeerHttpSettings.MAX_BODY_BYTES);
  }

  private static PeerHttpSettings withLimits(int maxHeadBytes, int maxBodyBytes) {
    return settings(PeerHttpSettings.VALIDATE_AFTER_INACTIVITY, maxHeadBytes, maxBodyBytes);
  }

  private static PeerHttpSettings settings(
      Duration validateAfterInactivity, int maxHeadBytes, int maxBodyBytes) {
    return new PeerHttpSettings(
        TIMEOUT,
        4,
        8,
        PeerHttpSettings.MAX_IDLE,
        validateAfterInactivity,
        maxHeadBytes,
        maxBodyBytes);
  }

  private PeerHttpClient client(PeerHttpSettings settings) {
    PeerHttpClient client = new PeerHttpClient(null, settings);
    this.closing.add(client);
    return client;
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
