package dev.matview.processes.http;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/** The headers of an answer the JDK client received, as the probe hands them to tests. */
final class ReceivedHeaders {

  private ReceivedHeaders() {}

  /** {@code received} as Spring's {@link HttpHeaders}, whose names ignore case. */
  static HttpHeaders of(java.net.http.HttpHeaders received) {
    HttpHeaders headers = new HttpHeaders();
    received.map().forEach(headers::addAll);
    return headers;
  }

  /** The charset of a body of {@code headers}' content type, UTF-8 unless it names a valid one. */
  static Charset charset(HttpHeaders headers) {
    MediaType type;
    try {
      type = headers.getContentType();
    } catch (IllegalArgumentException ex) {
      return StandardCharsets.UTF_8;
    }
    Charset charset = (type != null) ? type.getCharset() : null;
    return (charset != null) ? charset : StandardCharsets.UTF_8;
  }
}
