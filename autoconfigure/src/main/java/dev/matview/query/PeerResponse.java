package dev.matview.query;

import dev.matview.peer.http.PeerHttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What another instance answered to a forwarded request.
 *
 * @param status the HTTP status
 * @param headers the response headers by name, in the case the instance wrote them
 * @param body the response body
 */
public record PeerResponse(int status, Map<String, List<String>> headers, byte[] body) {

  /** The first value of header {@code name}, whatever its case, or {@code null}. */
  public @Nullable String header(String name) {
    return PeerHttpResponse.first(this.headers, name);
  }

  /** Whether the body names a type of Matview's problem details, as Matview's own errors do. */
  public boolean namesMatviewProblem() {
    return new String(this.body, StandardCharsets.UTF_8).contains(ProblemTypes.BASE);
  }

  /** Whether the status is 2xx. */
  public boolean isSuccess() {
    return this.status >= 200 && this.status < 300;
  }
}
