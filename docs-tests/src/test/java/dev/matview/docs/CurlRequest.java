package dev.matview.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a {@code curl} command of a page asks: method, path and query, headers and body. The host
 * and port it names are left out: every request goes to the one app the checks run.
 *
 * @param where the block it is in
 * @param method the HTTP method: {@code -X}, or POST with a body, else GET
 * @param pathAndQuery the path and query of its URL, as written
 * @param headers the {@code -H} headers as names and values, in pairs
 * @param body the {@code -d} body, if it sends one
 * @param streamed whether it reads a stream that does not end ({@code -N})
 */
record CurlRequest(
    String where,
    String method,
    String pathAndQuery,
    List<String> headers,
    Optional<String> body,
    boolean streamed) {

  /** The request of {@code words}, a command whose first word is {@code curl}. */
  static CurlRequest of(String where, List<String> words) {
    String method = null;
    String url = null;
    String body = null;
    boolean streamed = false;
    List<String> headers = new ArrayList<>();
    for (int i = 1; i < words.size(); i++) {
      String word = words.get(i);
      if (word.equals("-X") || word.equals("--request")) {
        method = words.get(++i);
      } else if (word.startsWith("-X")) {
        method = word.substring(2);
      } else if (word.equals("-H") || word.equals("--header")) {
        String header = words.get(++i);
        int colon = header.indexOf(':');
        headers.add(header.substring(0, colon).strip());
        headers.add(header.substring(colon + 1).strip());
      } else if (word.equals("-d") || word.equals("--data")) {
        body = words.get(++i);
      } else if (word.equals("-N") || word.equals("--no-buffer")) {
        streamed = true;
      } else if (!word.startsWith("-")) {
        if (url != null) {
          throw new IllegalArgumentException(where + ": curl with two URLs: " + words);
        }
        url = word;
      }
    }
    if (url == null) {
      throw new IllegalArgumentException(where + ": curl without a URL: " + words);
    }
    String resolved = (method != null) ? method : (body != null) ? "POST" : "GET";
    return new CurlRequest(
        where,
        resolved.toUpperCase(Locale.ROOT),
        pathAndQuery(where, url),
        List.copyOf(headers),
        Optional.ofNullable(body),
        streamed);
  }

  private static String pathAndQuery(String where, String url) {
    String address = url.replaceFirst("^https?://", "");
    int slash = address.indexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException(where + ": a URL without a path: " + url);
    }
    return address.substring(slash);
  }

  /** The command, for messages. */
  String describe() {
    return this.where + ": " + this.method + " " + this.pathAndQuery;
  }
}
