package dev.matview.processes.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClient.RequestHeadersSpec.ConvertibleClientHttpResponse;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.MissingNode;

/**
 * Requests to one HTTP server for tests and for the benchmarks' set-up and checks: Spring's {@link
 * RestClient} on the JDK's {@link HttpClient}, each answer a value whatever its status.
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

  private final RestClient client;

  private HttpProbe(String baseUrl, Duration timeout) {
    this.baseUrl = baseUrl;
    this.timeout = timeout;
    JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(CLIENT);
    requests.setReadTimeout(timeout);
    // Answers come as the server writes them, without an Accept-Encoding of the client's own.
    requests.enableCompression(false);
    this.client = RestClient.builder().requestFactory(requests).build();
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
    return send(HttpMethod.GET, pathAndQuery, null, headers);
  }

  /**
   * POSTs {@code body} as JSON, with the given header names and values in pairs: a {@code String}
   * as it is, anything else as Jackson writes it.
   */
  public Answer post(String pathAndQuery, Object body, String... headers) {
    return send(HttpMethod.POST, pathAndQuery, body, headers);
  }

  /** POSTs an empty body to {@code pathAndQuery}. */
  public Answer post(String pathAndQuery) {
    return send(HttpMethod.POST, pathAndQuery, null);
  }

  /** {@code value} encoded for a URL's path segment or query parameter. */
  public static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private Answer send(
      HttpMethod method, String pathAndQuery, @Nullable Object body, String... headers) {
    if (headers.length % 2 != 0) {
      throw new IllegalArgumentException(
          "Header names and values come in pairs: " + headers.length);
    }
    URI uri = uri(pathAndQuery);
    RestClient.RequestBodySpec request = this.client.method(method).uri(uri);
    for (int i = 0; i < headers.length; i += 2) {
      request = request.header(headers[i], headers[i + 1]);
    }
    if (body != null) {
      request = request.contentType(MediaType.APPLICATION_JSON).body(body);
    }
    try {
      return request.exchange((sent, response) -> Answer.of(method + " " + uri, uri, response));
    } catch (ResourceAccessException ex) {
      if (ex.getCause() instanceof IOException io) {
        throw new UncheckedIOException(method + " " + uri + " failed", io);
      }
      throw ex;
    }
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

    static Answer of(String request, URI uri, ConvertibleClientHttpResponse response)
        throws IOException {
      HttpHeaders headers = HttpHeaders.copyOf(response.getHeaders());
      String body = new String(response.getBody().readAllBytes(), charset(headers));
      return new Answer(
          request, uri, response.getStatusCode().value(), headers, body, readJson(body));
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

    private static Charset charset(HttpHeaders headers) {
      MediaType type = headers.getContentType();
      Charset charset = (type != null) ? type.getCharset() : null;
      return (charset != null) ? charset : StandardCharsets.UTF_8;
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
