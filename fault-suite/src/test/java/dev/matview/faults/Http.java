package dev.matview.faults;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;

/** One pooled HTTP client for every request the suite makes, with bounded waits. */
final class Http {

  /** How long a request may take before the suite counts it as timed out. */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(2))
          .build();

  private Http() {}

  /** GETs {@code uri} and reads the body as a string. */
  static HttpResponse<String> get(URI uri) throws IOException {
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT).GET().build();
    try {
      return CLIENT.send(request, BodyHandlers.ofString());
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while waiting for " + uri, ex);
    }
  }
}
