package dev.matview.query;

import java.net.http.HttpHeaders;
import org.jspecify.annotations.Nullable;

/**
 * What another instance answered to a forwarded request.
 *
 * @param status the HTTP status
 * @param headers the response headers
 * @param body the response body
 */
public record PeerResponse(int status, HttpHeaders headers, byte[] body) {

  /** The first value of header {@code name}, or {@code null}. */
  public @Nullable String header(String name) {
    return this.headers.firstValue(name).orElse(null);
  }

  /** Whether the status is 2xx. */
  public boolean isSuccess() {
    return this.status >= 200 && this.status < 300;
  }
}
