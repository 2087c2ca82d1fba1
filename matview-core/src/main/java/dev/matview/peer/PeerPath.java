package dev.matview.peer;

import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * A path and query that one instance sends another, each path segment and each query name and value
 * percent-encoded as UTF-8 so that it arrives exactly as it was meant: only RFC 3986's unreserved
 * characters are left as they are.
 */
public final class PeerPath {

  /** The path segment, after the view's, of the reads of one key given as a query parameter. */
  public static final String KEY_SEGMENT = "key";

  /** The query parameter that carries the key of such a read. */
  public static final String KEY_PARAMETER = "key";

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private final StringBuilder text = new StringBuilder();

  private boolean hasQuery;

  private PeerPath() {}

  /** A path of {@code segments}, each encoded. */
  public static PeerPath of(String... segments) {
    PeerPath path = new PeerPath();
    for (String segment : segments) {
      path.segment(segment);
    }
    return path;
  }

  /**
   * The read of {@code rawKey} in {@code view} at {@code segments}: {@code
   * /<view>/keys/<rawKey>/<segments>} when any server carries the key in a path as it is, else
   * {@code /<view>/key/<segments>?key=<rawKey>}, since a server may refuse or rewrite a {@code .}
   * or {@code ..} segment, a {@code /}, a {@code \}, a {@code %} escape or a control character in a
   * path (the other instance's own settings included).
   */
  public static PeerPath ofKey(String view, String rawKey, String... segments) {
    boolean inPath = fitsAPath(rawKey);
    PeerPath path = inPath ? of(view, "keys", rawKey) : of(view, KEY_SEGMENT);
    for (String segment : segments) {
      path.segment(segment);
    }
    return inPath ? path : path.param(KEY_PARAMETER, rawKey);
  }

  private static boolean fitsAPath(String rawKey) {
    if (rawKey.isEmpty() || rawKey.equals(".") || rawKey.equals("..")) {
      return false;
    }
    return rawKey
        .chars()
        .noneMatch(c -> c == '/' || c == '\\' || c == '%' || c < 0x20 || c == 0x7f);
  }

  /**
   * Adds {@code query}, the query of another path ({@code ?} and encoded parameters) or nothing,
   * after this path's own parameters.
   */
  public PeerPath query(String query) {
    if (!query.isEmpty()) {
      if (query.charAt(0) != '?') {
        throw new IllegalArgumentException("A query starts with '?': " + query);
      }
      this.text.append(this.hasQuery ? '&' : '?').append(query, 1, query.length());
      this.hasQuery = true;
    }
    return this;
  }

  /** Adds {@code segment}, encoded, as the next path segment. */
  public PeerPath segment(String segment) {
    if (this.hasQuery) {
      throw new IllegalStateException("Path segments go before the query");
    }
    this.text.append('/');
    if (segment.equals(".") || segment.equals("..")) {
      this.text.append(segment.replace(".", "%2E"));
    } else {
      this.text.append(encode(segment));
    }
    return this;
  }

  /** Adds the query parameter {@code name} with {@code value}, both encoded; none when null. */
  public PeerPath param(String name, @Nullable Object value) {
    if (value != null) {
      this.text.append(this.hasQuery ? '&' : '?');
      this.text.append(encode(name)).append('=').append(encode(value.toString()));
      this.hasQuery = true;
    }
    return this;
  }

  /** {@code value} with every character but the unreserved ones percent-encoded as UTF-8. */
  public static String encode(String value) {
    StringBuilder encoded = new StringBuilder(value.length());
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xFF);
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '.'
          || c == '_'
          || c == '~') {
        encoded.append(c);
      } else {
        encoded.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
      }
    }
    return encoded.toString();
  }

  @Override
  public String toString() {
    return this.text.toString();
  }
}
