package dev.matview.peer.http;

import static dev.matview.peer.http.PeerAsyncHttpClientAnswersTests.answered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIOException;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The connections the peers' client keeps: how many to one instance and to all, how long, and which
 * request it sends again on a new one when the other side closed an idle one.
 */
class PeerAsyncHttpClientPoolTests {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private static final String ANSWER = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

  private final CountDownLatch release = new CountDownLatch(1);

  private final List<AutoCloseable> closing = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    this.release.countDown();
    for (AutoCloseable closeable : this.closing) {
      closeable.close();
    }
  }

  @Test
  void opensNoMoreConnectionsToOneInstanceThanItsLimitAndLetsTheNextRequestWait() throws Exception {
    ScriptedServer server = serve(this::answerWhenReleased);
    PeerAsyncHttpClient client = client(settings(2, 8, PeerHttpSettings.MAX_IDLE));
    List<CompletableFuture<PeerHttpResponse>> answers = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      answers.add(get(client, server, "/a", TIMEOUT));
    }
    await().untilAsserted(() -> assertThat(server.requests()).hasSize(2));
    assertThat(answers).noneMatch(CompletableFuture::isDone);
    this.release.countDown();
    for (CompletableFuture<PeerHttpResponse> answer : answers) {
      assertThat(answer.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS).status()).isEqualTo(200);
    }
    assertThat(server.requests()).hasSize(3);
    assertThat(server.connections()).hasValue(2);
  }

  /**
   * A request whose wait for a connection is over fails once the pool is next told of a connection
   * given back or closed, not at the moment its wait is over: here when the first request's own
   * timeout closes the one connection.
   */
  @Test
  void failsWithATimeoutWhenNoConnectionToTheInstanceCameFreeInTime() throws Exception {
    ScriptedServer server = serve(this::answerWhenReleased);
    PeerAsyncHttpClient client = client(settings(1, 8, PeerHttpSettings.MAX_IDLE));
    CompletableFuture<PeerHttpResponse> first = get(client, server, "/a", Duration.ofSeconds(1));
    await().untilAsserted(() -> assertThat(server.requests()).hasSize(1));
    assertThatExceptionOfType(SocketTimeoutException.class)
        .isThrownBy(() -> answered(get(client, server, "/b", Duration.ofMillis(200))))
        .withMessageContaining("No connection");
    assertThatExceptionOfType(SocketTimeoutException.class).isThrownBy(() -> answered(first));
  }

  @Test
  void closesAnIdleConnectionToOneInstanceToMakeRoomForAnotherWithinTheTotal() throws Exception {
    ScriptedServer left = serve((request) -> ANSWER);
    ScriptedServer joined = serve((request) -> ANSWER);
    PeerAsyncHttpClient client = client(settings(1, 1, PeerHttpSettings.MAX_IDLE));
    answered(get(client, left, "/a", TIMEOUT));
    assertThat(answered(get(client, joined, "/a", TIMEOUT)).status()).isEqualTo(200);
    await().untilAsserted(() -> assertThat(left.ended()).hasValue(1));
    assertThat(joined.ended()).hasValue(0);
  }

  @Test
  void closesConnectionsIdleForLongerThanTheirLimitWithoutAnotherRequest() throws Exception {
    ScriptedServer departed = serve((request) -> ANSWER);
    PeerAsyncHttpClient client = client(settings(2, 8, Duration.ofMillis(100)));
    answered(get(client, departed, "/a", TIMEOUT));
    await().untilAsserted(() -> assertThat(departed.ended()).hasValue(1));
  }

  @Test
  void sendsAGetAgainOnANewConnectionWhenTheOtherSideClosedItBeforeAnyAnswer() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    ScriptedServer server =
        serve(
            (request) ->
                asked.incrementAndGet() == 1
                    ? ""
                    : "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n2");
    PeerHttpResponse again = answered(get(client(), server, "/a", TIMEOUT));
    assertThat(new String(again.body(), StandardCharsets.UTF_8)).isEqualTo("2");
    assertThat(server.requests()).hasSize(2);
    assertThat(server.connections()).hasValue(2);
  }

  @Test
  void neverSendsAPostAgainWhenTheOtherSideClosedTheConnectionBeforeAnyAnswer() throws Exception {
    ScriptedServer server = serve((request) -> "");
    assertThatIOException()
        .isThrownBy(() -> answered(post(client(), server)))
        .isNotInstanceOfAny(ConnectException.class, SocketTimeoutException.class);
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void sendsAPostOnANewConnectionWhenItFindsTheIdleOneClosedBeforeSending() throws Exception {
    ScriptedServer server = serve((request) -> "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    PeerAsyncHttpClient checking = client(validatedAfter(Duration.ZERO));
    answered(get(checking, server, "/a", TIMEOUT));
    server.closeOpenConnections();
    await().untilAsserted(() -> assertThat(server.ended()).hasValue(1));
    assertThat(answered(post(checking, server)).status()).isEqualTo(200);
    assertThat(server.connections()).hasValue(2);
  }

  private String answerWhenReleased(String request) {
    try {
      this.release.await();
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
    }
    return ANSWER;
  }

  private static CompletableFuture<PeerHttpResponse> get(
      PeerAsyncHttpClient client, ScriptedServer server, String target, Duration timeout) {
    return client.exchange("127.0.0.1", server.port(), "GET", target, Map.of(), null, timeout);
  }

  private static CompletableFuture<PeerHttpResponse> post(
      PeerAsyncHttpClient client, ScriptedServer server) {
    byte[] body = "{\"keys\":[1]}".getBytes(StandardCharsets.UTF_8);
    return client.exchange(
        "127.0.0.1", server.port(), "POST", "/views/v/batch", Map.of(), body, TIMEOUT);
  }

  private static PeerHttpSettings settings(int perInstance, int total, Duration maxIdle) {
    return new PeerHttpSettings(
        TIMEOUT,
        perInstance,
        total,
        maxIdle,
        PeerHttpSettings.VALIDATE_AFTER_INACTIVITY,
        PeerHttpSettings.MAX_HEAD_BYTES,
        PeerHttpSettings.MAX_BODY_BYTES);
  }

  /** Settings under which a connection idle for {@code idle} is checked before it is taken. */
  private static PeerHttpSettings validatedAfter(Duration idle) {
    return new PeerHttpSettings(
        TIMEOUT,
        4,
        8,
        PeerHttpSettings.MAX_IDLE,
        idle,
        PeerHttpSettings.MAX_HEAD_BYTES,
        PeerHttpSettings.MAX_BODY_BYTES);
  }

  private PeerAsyncHttpClient client() {
    return client(settings(4, 8, PeerHttpSettings.MAX_IDLE));
  }

  private PeerAsyncHttpClient client(PeerHttpSettings settings) {
    PeerAsyncHttpClient client = new PeerAsyncHttpClient(null, settings, Exchanges.ioThreads());
    this.closing.add(client);
    return client;
  }

  private ScriptedServer serve(ScriptedServer.Answers answers) throws IOException {
    ScriptedServer server =
        new ScriptedServer(
            new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), answers, false);
    this.closing.add(server);
    return server;
  }
}
