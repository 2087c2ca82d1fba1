package dev.matview.peer.http;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What another instance answered: its status, its headers by name in the case the instance wrote
 * them, and its body, empty when it had none.
 */
public record PeerHttpResponse(int status, Map<String, List<String>> headers, byte[] body) {

  /** The first value of header {@code name}, whatever its case, or {@code null}. */
  public @Nullable String header(String name) {
    return first(this.headers, name);
  }

  /** The first value of header {@code name} in {@code headers}, whatever its case, or null. */
  public static @Nullable String first(Map<String, List<String>> headers, String name) {
    for (Map.Entry<String, List<String>> header : headers.entrySet()) {
      if (header.getKey().equalsIgnoreCase(name) && !header.getValue().isEmpty()) {
        return header.getValue().get(0);
      }
    }
    return null;
  }
}
