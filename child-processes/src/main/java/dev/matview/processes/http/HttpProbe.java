package dev.matview.processes.http;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.MissingNode;

/**
 * Requests to one HTTP server, the one HTTP client of every module's tests, the fault suite and the
 * benchmarks' set-up: each answer a value whatever its status, read whole within the timeout
 * ({@link #send}), without a thread waiting for it ({@link #sendAsync}), or line by line as it
 * arrives ({@link #open}). It runs on the JDK's {@link HttpClient} over HTTP/1.1 and adds no header
 * of its own (no {@code Accept}, no {@code Accept-Encoding}); a request no client library sends, or
 * a socket a test handles itself, goes through {@link RawHttp}.
 */
public final class HttpProbe {

  /**
   * How long a request waits for its answer unless {@link #withTimeout(Duration)} says otherwise.
   */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final String baseUrl;

  private final Duration timeout;

  private HttpProbe(String baseUrl, Duration timeout) {
    this.baseUrl = baseUrl;
    this.timeout = timeout;
  }

  /**
   * A probe of the server at {@code baseUrl}, such as {@code http://127.0.0.1:8080}, or with a
   * servlet context path, {@code http://localhost:8080/shop}.
   */
  public static HttpProbe of(String baseUrl) {
    return new HttpProbe(baseUrl, DEFAULT_TIMEOUT);
  }

  /** A probe of {@code http://localhost:<port>}. */
  public static HttpProbe localhost(int port) {
    return of("http://localhost:" + port);
  }

  /**
   * A probe of the same server whose requests wait at most {@code timeout} for their answers; it
   * shares this probe's connections.
   */
  public HttpProbe withTimeout(Duration timeout) {
    return new HttpProbe(this.baseUrl, timeout);
  }

  /** How long each request waits for its answer. */
  public Duration timeout() {
    return this.timeout;
  }

  /** The {@code host:port} of the server, as instances name themselves in their answers. */
  public String address() {
    return URI.create(this.baseUrl).getAuthority();
  }

  /** The address of {@code pathAndQuery}, taken as it is (already encoded), on this server. */
  public URI uri(String pathAndQuery) {
    return URI.create(this.baseUrl + pathAndQuery);
  }

  /** GETs {@code pathAndQuery} with the given header names and values, in pairs. */
  public Answer get(String pathAndQuery, String... headers) {
    return send("GET", pathAndQuery, null, headers);
  }

  /**
   * POSTs {@code body} as JSON, with the given header names and values in pairs: a {@code String}
   * as it is, anything else as Jackson writes it.
   */
  public Answer post(String pathAndQuery, Object body, String... headers) {
    return send("POST", pathAndQuery, body, headers);
  }

  /** POSTs an empty body to {@code pathAndQuery}. */
  public Answer post(String pathAndQuery) {
    return send("POST", pathAndQuery, null);
  }

  /**
   * Sends {@code method} to {@code pathAndQuery} and reads the whole answer within the timeout.
   *
   * @param body {@code null} for none, a {@code String} as it is, anything else as Jackson writes
   *     it; sent as JSON unless the headers name a {@code Content-Type}
   * @param headers header names and values, in pairs
   * @throws UncheckedIOException when no whole answer came: its cause is the JDK client's own
   *     exception, an {@link HttpTimeoutException} when the timeout ran out first
   */
  public Answer send(String method, String pathAndQuery, @Nullable Object body, String... headers) {
    HttpRequest request = request(method, pathAndQuery, body, headers);
    CompletableFuture<HttpResponse<byte[]>> exchange = exchange(request);
    try {
      return Answer.of(request, exchange.get(this.timeout.toMillis(), TimeUnit.MILLISECONDS));
    } catch (TimeoutException ex) {
      exchange.cancel(true);
      throw failed(request, new HttpTimeoutException("No whole answer within " + this.timeout));
    } catch (InterruptedException ex) {
      exchange.cancel(true);
      Thread.currentThread().interrupt();
      throw failed(request, new InterruptedIOException("Interrupted while waiting for the answer"));
    } catch (ExecutionException ex) {
      if (ex.getCause() instanceof IOException io) {
        throw failed(request, io);
      }
      throw new IllegalStateException(ProbeRequests.describe(request) + " failed", ex.getCause());
    }
  }

  /**
   * Sends {@code method} as {@link #send} does, with no thread waiting for its answer: the future
   * completes with the whole answer, however long it takes, or with the JDK client's exception.
   */
  public CompletableFuture<Answer> sendAsync(
      String method, String pathAndQuery, @Nullable Object body, String... headers) {
    HttpRequest request = request(method, pathAndQuery, body, headers);
    return exchange(request).thenApply(response -> Answer.of(request, response));
  }

  /**
   * GETs {@code pathAndQuery} and hands its body out line by line as it arrives, once its status
   * and headers came within the timeout; closing it goes away from the answer mid-body.
   */
  public StreamedAnswer open(String pathAndQuery, String... headers) {
    return StreamedAnswer.open(CLIENT, request("GET", pathAndQuery, null, headers), this.timeout);
  }

  /**
   * Opens the change stream at {@code pathAndQuery} ({@code Accept: text/event-stream} and the
   * given headers), to read its events one at a time.
   */
  public ServerSentEventReader events(String pathAndQuery, String... headers) {
    String[] all = new String[headers.length + 2];
    all[0] = "Accept";
    all[1] = "text/event-stream";
    System.arraycopy(headers, 0, all, 2, headers.length);
    return new ServerSentEventReader(open(pathAndQuery, all));
  }

  /** {@code value} encoded for a URL's path segment or query parameter. */
  public static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /**
   * Whether a request that got no answer ran out of time waiting for it, rather than failing to
   * connect or losing its connection.
   */
  public static boolean timedOut(UncheckedIOException failure) {
    return failure.getCause() instanceof HttpTimeoutException
        && !(failure.getCause() instanceof HttpConnectTimeoutException);
  }

  private HttpRequest request(
      String method, String pathAndQuery, @Nullable Object body, String... headers) {
    return ProbeRequests.request(uri(pathAndQuery), this.timeout, method, body, headers);
  }

  /** Sends {@code request}; cancelling the future aborts the exchange. */
  private static CompletableFuture<HttpResponse<byte[]>> exchange(HttpRequest request) {
    return CLIENT.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
  }

  private static UncheckedIOException failed(HttpRequest request, IOException cause) {
    return new UncheckedIOException(ProbeRequests.describe(request) + " failed", cause);
  }

  /**
   * One answer.
   *
   * @param request the method and URI asked, for assertion messages
   * @param uri the URI asked
   * @param status the HTTP status
   * @param headers the response headers
   * @param body the body as text, empty when there is none
   * @param json the body read as JSON, or a missing node when it has none or is not JSON
   */
  public record Answer(
      String request, URI uri, int status, HttpHeaders headers, String body, JsonNode json) {

    static Answer of(HttpRequest request, HttpResponse<byte[]> response) {
      HttpHeaders headers = ReceivedHeaders.of(response.headers());
      String body = new String(response.body(), ReceivedHeaders.charset(headers));
      return new Answer(
          ProbeRequests.describe(request),
          request.uri(),
          response.statusCode(),
          headers,
          body,
          readJson(body));
    }

    /** The first value of the header {@code name}, or an empty string when there is none. */
    public String header(String name) {
      String value = this.headers.getFirst(name);
      return (value != null) ? value : "";
    }

    /** Describes the exchange for an assertion message. */
    public String describe() {
      String shown =
          (this.body.length() > 2_000) ? this.body.substring(0, 2_000) + "..." : this.body;
      return this.request + " -> " + this.status + " " + shown;
    }

    private static JsonNode readJson(String body) {
      if (body.isBlank()) {
        return MissingNode.getInstance();
      }
      try {
        return JSON.readTree(body);
      } catch (JacksonException ex) {
        return MissingNode.getInstance();
      }
    }
  }
}
