package dev.matview.processes.http;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import tools.jackson.databind.json.JsonMapper;

/** Builds the requests an {@link HttpProbe} sends, and names them in its messages. */
final class ProbeRequests {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private ProbeRequests() {}

  /**
   * A request of {@code method} to {@code uri}, waiting at most {@code timeout}, with {@code body}
   * ({@code null} for none, a {@code String} as it is, anything else as Jackson writes it, sent as
   * JSON unless the headers name a {@code Content-Type}) and the header names and values in pairs.
   */
  static HttpRequest request(
      URI uri, Duration timeout, String method, @Nullable Object body, String... headers) {
    if (headers.length % 2 != 0) {
      throw new IllegalArgumentException(
          "Header names and values come in pairs: " + headers.length);
    }
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout);
    boolean typed = false;
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
      typed |= headers[i].equalsIgnoreCase(HttpHeaders.CONTENT_TYPE);
    }
    if (body == null) {
      return request.method(method, HttpRequest.BodyPublishers.noBody()).build();
    }
    if (!typed) {
      request.header(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON_VALUE);
    }
    String text = (body instanceof String string) ? string : JSON.writeValueAsString(body);
    return request
        .method(method, HttpRequest.BodyPublishers.ofString(text, StandardCharsets.UTF_8))
        .build();
  }

  /** The method and URI of {@code request}, for messages. */
  static String describe(HttpRequest request) {
    return request.method() + " " + request.uri();
  }
}
