package dev.matview.cluster;

import dev.matview.peer.PeerRequests;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.MissingNode;

/**
 * A small HTTP client for tests: sends GETs and JSON POSTs to one instance and reads the answer.
 */
final class InstanceClient {

  private static final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private static final JsonMapper mapper = JsonMapper.builder().build();

  private final int port;

  private final String contextPath;

  InstanceClient(int port) {
    this(port, "");
  }

  /** A client of the instance at {@code port} whose servlet context path is {@code contextPath}. */
  InstanceClient(int port, String contextPath) {
    this.port = port;
    this.contextPath = contextPath;
  }

  /** The {@code host:port} under which the instance names itself in answers. */
  String address() {
    return "localhost:" + this.port;
  }

  /**
   * GETs {@code path}, below the context path, with the given header names and values, in pairs.
   */
  Answer get(String path, String... headers) {
    return send(request(path, headers).GET().build());
  }

  /**
   * GETs {@code path} as another instance would: with the forwarded marker and a signature made by
   * {@code requests}, then the given header names and values, in pairs.
   */
  Answer getAsPeer(String path, PeerRequests requests, String... headers) {
    HttpRequest.Builder builder =
        request(path, headers)
            .header(PeerRequests.FORWARDED_HEADER, "1")
            .header(
                PeerRequests.SIGNATURE_HEADER, requests.sign("GET", this.contextPath + path, null));
    return send(builder.GET().build());
  }

  /**
   * POSTs {@code json} to {@code path} as another instance would: with the forwarded marker and
   * {@code signature}.
   */
  Answer postAsPeer(String path, String json, String signature) {
    return send(
        request(path)
            .header("Content-Type", "application/json")
            .header(PeerRequests.FORWARDED_HEADER, "1")
            .header(PeerRequests.SIGNATURE_HEADER, signature)
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build());
  }

  /** POSTs {@code body} as JSON to {@code path}. */
  Answer post(String path, Object body) {
    return send(
        request(path)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(mapper.writeValueAsString(body)))
            .build());
  }

  /** {@code value} encoded for a URL's path segment or query parameter. */
  static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private HttpRequest.Builder request(String path, String... headers) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(
                URI.create("http://localhost:" + this.port + this.contextPath + path))
            .timeout(Duration.ofSeconds(10));
    for (int i = 0; i + 1 < headers.length; i += 2) {
      builder.header(headers[i], headers[i + 1]);
    }
    return builder;
  }

  private Answer send(HttpRequest request) {
    try {
      HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
      String body = response.body();
      return new Answer(request.method() + " " + request.uri(), response, json(body));
    } catch (IOException ex) {
      throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", ex);
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(ex);
    }
  }

  private static JsonNode json(String body) {
    if (body == null || body.isBlank()) {
      return MissingNode.getInstance();
    }
    try {
      return mapper.readTree(body);
    } catch (JacksonException ex) {
      return MissingNode.getInstance();
    }
  }

  /**
   * One answer.
   *
   * @param request the method and URI asked, for assertion messages
   * @param response the response
   * @param json its body, or a missing node when it has none or is not JSON
   */
  record Answer(String request, HttpResponse<String> response, JsonNode json) {

    int status() {
      return this.response.statusCode();
    }

    String header(String name) {
      return this.response.headers().firstValue(name).orElse("");
    }

    /** Describes the exchange for an assertion message. */
    String describe() {
      return this.request + " -> " + status() + " " + this.response.body();
    }
  }
}
