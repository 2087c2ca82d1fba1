package dev.matview.peer.http;

import java.util.Map;

/**
 * Refuses a request line or header that HTTP/1.1 cannot carry as it stands, so that no value is
 * altered on the way or splits the request.
 */
final class RequestSyntax {

  private RequestSyntax() {}

  /**
   * Checks {@code method}, {@code target} and {@code headers}; throws {@link
   * IllegalArgumentException} when one of them is not what HTTP/1.1 can carry.
   */
  static void check(String method, String target, Map<String, String> headers) {
    if (!isToken(method) || !isTarget(target)) {
      throw new IllegalArgumentException(
          "Not a request line HTTP/1.1 can carry: " + method + " " + target);
    }
    for (Map.Entry<String, String> header : headers.entrySet()) {
      if (!isToken(header.getKey()) || !isFieldValue(header.getValue())) {
        throw new IllegalArgumentException(
            "Header '" + header.getKey() + "' has a name or value HTTP/1.1 cannot carry");
      }
    }
  }

  /** Whether {@code text} is a non-empty HTTP token: visible ASCII without separators. */
  private static boolean isToken(String text) {
    if (text.isEmpty()) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c <= ' ' || c >= 127 || "\"(),/:;<=>?@[\\]{}".indexOf(c) >= 0) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code text} is an origin-form target: a path of visible ASCII, and its query. */
  private static boolean isTarget(String text) {
    if (!text.startsWith("/")) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c <= ' ' || c >= 127) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code text} is a field value: no control characters but tab. */
  private static boolean isFieldValue(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if ((c < ' ' && c != '\t') || c == 127 || c > 255) {
        return false;
      }
    }
    return true;
  }
}
