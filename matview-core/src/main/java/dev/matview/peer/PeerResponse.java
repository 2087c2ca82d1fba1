package dev.matview.peer;

import dev.matview.peer.http.PeerHttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What another instance answered to a forwarded request: its status, its headers by name in the
 * case the instance wrote them, and its body.
 */
public record PeerResponse(int status, Map<String, List<String>> headers, byte[] body) {

  /** {@link ProblemTypes#BASE} as UTF-8, in which it is ASCII. */
  private static final byte[] PROBLEM_TYPE_BASE =
      ProblemTypes.BASE.getBytes(StandardCharsets.US_ASCII);

  /** The first value of header {@code name}, whatever its case, or {@code null}. */
  public @Nullable String header(String name) {
    return PeerHttpResponse.first(this.headers, name);
  }

  /**
   * Whether the body names a type of Matview's problem details, as Matview's own errors do; the
   * bytes are searched as they came, so that no body is decoded or copied for it.
   */
  public boolean namesMatviewProblem() {
    int length = PROBLEM_TYPE_BASE.length;
    for (int start = 0; start <= this.body.length - length; start++) {
      if (Arrays.equals(this.body, start, start + length, PROBLEM_TYPE_BASE, 0, length)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the status is 2xx. */
  public boolean isSuccess() {
    return this.status >= 200 && this.status < 300;
  }
}
