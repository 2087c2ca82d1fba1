package dev.matview.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A small HTTP client for tests: GETs a path of one instance and reads the JSON answer. */
public final class HttpProbe {

  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final JsonMapper mapper = JsonMapper.builder().build();

  private final String baseUrl;

  public HttpProbe(int port) {
    this.baseUrl = "http://localhost:" + port;
  }

  public Answer get(String path) {
    return send(
        HttpRequest.newBuilder(URI.create(this.baseUrl + path))
            .timeout(Duration.ofSeconds(10))
            .GET()
            .build());
  }

  public Answer post(String path, String json) {
    return send(
        HttpRequest.newBuilder(URI.create(this.baseUrl + path))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build());
  }

  private Answer send(HttpRequest request) {
    try {
      HttpResponse<String> response =
          this.client.send(request, HttpResponse.BodyHandlers.ofString());
      return new Answer(response, this.mapper.readTree(response.body()));
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(ex);
    }
  }

  public record Answer(HttpResponse<String> response, JsonNode json) {

    public int status() {
      return this.response.statusCode();
    }

    public String header(String name) {
      return this.response.headers().firstValue(name).orElse("");
    }
  }
}
