package dev.matview.failover;

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

/** A small HTTP client for tests: GETs paths of one instance and reads the JSON answers. */
final class ViewClient {

  private static final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private static final JsonMapper mapper = JsonMapper.builder().build();

  private final int port;

  ViewClient(int port) {
    this.port = port;
  }

  /** The {@code host:port} under which the instance names itself in answers. */
  String address() {
    return "localhost:" + this.port;
  }

  /** GETs {@code path}. */
  Answer get(String path) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
            .timeout(Duration.ofSeconds(10))
            .GET()
            .build();
    try {
      HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
      return new Answer("GET " + path, response, json(response.body()));
    } catch (IOException ex) {
      throw new UncheckedIOException("GET " + request.uri() + " failed", ex);
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(ex);
    }
  }

  /** {@code value} encoded for a URL's path segment or query parameter. */
  static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
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
   * @param request the method and path asked, for assertion messages
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
      String body = this.response.body();
      return this.request
          + " -> "
          + status()
          + " "
          + (body.length() > 300 ? body.substring(0, 300) + "..." : body);
    }
  }
}
