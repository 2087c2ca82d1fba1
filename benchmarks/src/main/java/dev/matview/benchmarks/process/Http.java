package dev.matview.benchmarks.process;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The runner's own HTTP calls to the processes it started, each bounded in time. */
public final class Http {

  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(2))
          .build();

  private Http() {}

  /** GETs {@code uri}, waiting at most {@code timeout} for the answer. */
  public static HttpResponse<String> get(URI uri, Duration timeout) throws IOException {
    return send(HttpRequest.newBuilder(uri).timeout(timeout).GET().build());
  }

  /** POSTs an empty body to {@code uri}, waiting at most {@code timeout} for the answer. */
  public static HttpResponse<String> post(URI uri, Duration timeout) throws IOException {
    return send(
        HttpRequest.newBuilder(uri)
            .timeout(timeout)
            .POST(HttpRequest.BodyPublishers.noBody())
            .build());
  }

  private static HttpResponse<String> send(HttpRequest request) throws IOException {
    try {
      return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while waiting for " + request.uri(), ex);
    }
  }
}
