package dev.matview.peer.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The connections the peer HTTP client keeps: how many to one instance and to all, how long. */
class PeerHttpClientPoolTests {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private static final String ANSWER = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

  private final CountDownLatch release = new CountDownLatch(1);

  private final ExecutorService callers = Executors.newCachedThreadPool();

  private final List<AutoCloseable> closing = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    this.release.countDown();
    this.callers.shutdownNow();
    for (AutoCloseable closeable : this.closing) {
      closeable.close();
    }
  }

  @Test
  void opensNoMoreConnectionsToOneInstanceThanItsLimitAndLetsTheNextRequestWait() throws Exception {
    ScriptedServer server = serve(this::answerWhenReleased);
    PeerHttpClient client = client(settings(2, 8, PeerHttpSettings.MAX_IDLE));
    List<CompletableFuture<PeerHttpResponse>> answers = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      answers.add(CompletableFuture.supplyAsync(() -> get(client, server), this.callers));
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

  @Test
  void failsWithATimeoutWhenNoConnectionToTheInstanceComesFreeInTime() throws Exception {
    ScriptedServer server = serve(this::answerWhenReleased);
    PeerHttpClient client = client(settings(1, 8, PeerHttpSettings.MAX_IDLE));
    CompletableFuture<PeerHttpResponse> first =
        CompletableFuture.supplyAsync(() -> get(client, server), this.callers);
    await().untilAsserted(() -> assertThat(server.requests()).hasSize(1));
    assertThatExceptionOfType(SocketTimeoutException.class)
        .isThrownBy(
            () ->
                client.exchange(
                    "127.0.0.1",
                    server.port(),
                    "GET",
                    "/b",
                    Map.of(),
                    null,
                    Duration.ofMillis(200)))
        .withMessageContaining("No connection");
    this.release.countDown();
    assertThat(first.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS).status()).isEqualTo(200);
  }

  @Test
  void closesAnIdleConnectionToOneInstanceToMakeRoomForAnotherWithinTheTotal() throws Exception {
    ScriptedServer left = serve((request) -> ANSWER);
    ScriptedServer joined = serve((request) -> ANSWER);
    PeerHttpClient client = client(settings(1, 1, PeerHttpSettings.MAX_IDLE));
    get(client, left);
    assertThat(get(client, joined).status()).isEqualTo(200);
    await().untilAsserted(() -> assertThat(left.ended()).hasValue(1));
    assertThat(joined.ended()).hasValue(0);
  }

  @Test
  void closesConnectionsIdleForLongerThanTheirLimitWithoutAnotherRequest() throws Exception {
    ScriptedServer departed = serve((request) -> ANSWER);
    PeerHttpClient client = client(settings(2, 8, Duration.ofMillis(100)));
    get(client, departed);
    await().untilAsserted(() -> assertThat(departed.ended()).hasValue(1));
  }

  private String answerWhenReleased(String request) {
    try {
      this.release.await();
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
    }
    return ANSWER;
  }

  private static PeerHttpResponse get(PeerHttpClient client, ScriptedServer server) {
    try {
      return client.exchange("127.0.0.1", server.port(), "GET", "/a", Map.of(), null, TIMEOUT);
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
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

  private PeerHttpClient client(PeerHttpSettings settings) {
    PeerHttpClient client = new PeerHttpClient(null, settings);
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
