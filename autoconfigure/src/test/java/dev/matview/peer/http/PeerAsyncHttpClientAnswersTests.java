package dev.matview.peer.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ProtocolException;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How the peers' client sends requests and reads answers, against a real socket that answers with
 * bytes each test scripts: targets and headers as they are, answers of every kind passed on as they
 * came (never followed, answered or asked again), and what it refuses to send or to read.
 */
class PeerAsyncHttpClientAnswersTests {

  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final List<AutoCloseable> closing = new ArrayList<>();

  private final PeerAsyncHttpClient client = client(PeerHttpSettings.of(TIMEOUT, 4, 8));

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable closeable : this.closing) {
      closeable.close();
    }
  }

  @Test
  void sendsTheTargetAsItIsEncoded() throws Exception {
    ScriptedServer server = serve((request) -> "HTTP/1.1 204 No Content\r\n\r\n");
    String target = "/views/v/keys/a%2Fb%25c%2Bd%3Be%20f%3Fg%23h%26i%3Dj%C3%BC?to=%2B10000";
    get(server, target);
    assertThat(server.requests().get(0)).startsWith("GET " + target + " HTTP/1.1\r\n");
  }

  @Test
  void sendsNoHeaderOfItsOwnBeyondWhatHttpNeeds() throws Exception {
    ScriptedServer server = serve((request) -> "HTTP/1.1 204 No Content\r\n\r\n");
    get(server, "/a");
    assertThat(server.requests().get(0))
        .doesNotContainIgnoringCase("Accept-Encoding")
        .doesNotContainIgnoringCase("Authorization")
        .doesNotContainIgnoringCase("Cookie");
  }

  @Test
  void readsAChunkedBodyWithExtensionsAndTrailersAndKeepsTheConnection() throws Exception {
    ScriptedServer server =
        serve(
            (request) ->
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "4;ext=1\r\nabcd\r\n3\r\nefg\r\n0\r\nTrailer: t\r\n\r\n");
    for (int i = 0; i < 10; i++) {
      assertThat(new String(get(server, "/" + i).body(), StandardCharsets.UTF_8))
          .isEqualTo("abcdefg");
    }
    assertThat(server.connections())
        .as("connections for 10 requests one after another, each handed back as it is answered")
        .hasValueLessThanOrEqualTo(5);
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
    assertThat(server.requests()).hasSize(1);
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
  void refusesAnAnswerThatIsNotHttp() throws Exception {
    ScriptedServer server = serve((request) -> "SSH-2.0-OpenSSH\r\n\r\n");
    assertThatExceptionOfType(ProtocolException.class).isThrownBy(() -> get(server, "/a"));
  }

  @Test
  void refusesAHeaderLineLongerThanItsLimit() throws Exception {
    ScriptedServer server =
        serve(
            (request) ->
                "HTTP/1.1 200 OK\r\nX-Long: "
                    + "a".repeat(2_000)
                    + "\r\nContent-Length: 0\r\n\r\n");
    assertThat(get(server, "/a").status()).as("within the default limit").isEqualTo(200);
    assertThatThrownBy(() -> get(client(withHeadLimit(1024)), server, "/a"))
        .satisfies(PeerAsyncHttpClientAnswersTests::isMessageConstraint);
  }

  @Test
  void refusesAnAnswerOfMoreHeadersThanItsLimit() throws Exception {
    ScriptedServer many =
        serve((request) -> "HTTP/1.1 200 OK\r\n" + headers(100) + "Content-Length: 0\r\n\r\n");
    ScriptedServer fewer =
        serve((request) -> "HTTP/1.1 200 OK\r\n" + headers(98) + "Content-Length: 0\r\n\r\n");
    assertThat(get(fewer, "/a").status()).as("within the limit").isEqualTo(200);
    assertThatThrownBy(() -> get(many, "/a"))
        .satisfies(PeerAsyncHttpClientAnswersTests::isMessageConstraint);
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
    assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                this.client.stream(
                    "127.0.0.1", 1, "/a", Map.of("X-Test", "a\nb"), TIMEOUT, new IgnoredBody()));
  }

  private static String headers(int count) {
    StringBuilder headers = new StringBuilder();
    for (int i = 0; i < count; i++) {
      headers.append("X-Header-").append(i).append(": a\r\n");
    }
    return headers.toString();
  }

  private PeerHttpResponse get(ScriptedServer server, String target) throws Exception {
    return get(this.client, server, target);
  }

  /** The answer to {@code GET target}, or what the exchange failed with, as it was thrown. */
  static PeerHttpResponse get(PeerAsyncHttpClient client, ScriptedServer server, String target)
      throws Exception {
    return answered(
        client.exchange(
            "127.0.0.1",
            server.port(),
            "GET",
            target,
            Map.of("Matview-Test", "yes"),
            null,
            TIMEOUT));
  }

  /** The answer of {@code exchange}, or what it failed with, as it was thrown. */
  static PeerHttpResponse answered(CompletableFuture<PeerHttpResponse> exchange) throws Exception {
    try {
      return exchange.get(30, TimeUnit.SECONDS);
    } catch (ExecutionException ex) {
      if (ex.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw ex;
    }
  }

  private static PeerHttpSettings withHeadLimit(int maxHeadBytes) {
    return new PeerHttpSettings(
        TIMEOUT,
        4,
        8,
        PeerHttpSettings.MAX_IDLE,
        PeerHttpSettings.VALIDATE_AFTER_INACTIVITY,
        maxHeadBytes,
        PeerHttpSettings.MAX_BODY_BYTES);
  }

  private PeerAsyncHttpClient client(PeerHttpSettings settings) {
    PeerAsyncHttpClient made = new PeerAsyncHttpClient(null, settings, Exchanges.ioThreads());
    this.closing.add(made);
    return made;
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

  /** A body that no test reads. */
  private static final class IgnoredBody implements BodyListener {

    @Override
    public void head(int status, @Nullable String contentType) {}

    @Override
    public void data(ByteBuffer bytes, Runnable more) {}

    @Override
    public void ended() {}

    @Override
    public void failed(Exception failure) {}
  }

  /**
   * Whether {@code thrown} is HttpClient's refusal of an answer beyond its limits, named, not
   * typed: the build tests the module's jar, where HttpClient is relocated.
   */
  private static void isMessageConstraint(Throwable thrown) {
    assertThat(thrown).isInstanceOf(java.io.IOException.class);
    assertThat(thrown.getClass().getSimpleName()).isEqualTo("MessageConstraintException");
  }
}
