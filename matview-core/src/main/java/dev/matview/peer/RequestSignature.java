package dev.matview.peer;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.jspecify.annotations.Nullable;

/**
 * A request's signature as {@link PeerRequests} writes and reads it: a version, the timestamp in
 * epoch milliseconds, the body's SHA-256 (or {@code none}) and the MAC, joined with dots; the MAC
 * covers the method, the path and query, the timestamp and digest as written, and every signed
 * header.
 */
record RequestSignature(String timestamp, String digest, byte[] mac) {

  private static final String VERSION = "v2";

  /** The length of a MAC or a SHA-256 digest of 32 bytes in URL-safe Base64 without padding. */
  private static final int MAC_CHARACTERS = 43;

  private static final String NO_BODY = "none";

  private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();

  /**
   * The signature by {@code key}, made at {@code millis}, of a request with {@code body} (or none)
   * and {@code headers}.
   */
  static RequestSignature sign(
      HmacKey key,
      String method,
      String pathAndQuery,
      long millis,
      byte @Nullable [] body,
      PeerRequests.HeaderValues headers) {
    String timestamp = Long.toString(millis);
    String digest = body != null ? PeerRequests.digest(body) : NO_BODY;
    byte[] mac = key.mac(covered(method, pathAndQuery, timestamp, digest, headers));
    return new RequestSignature(timestamp, digest, mac);
  }

  /**
   * The signature {@code text} writes, or {@code null} when it is not exactly of the form {@link
   * #text} writes, with a MAC of exactly 32 bytes.
   */
  static @Nullable RequestSignature parse(String text) {
    String[] parts = text.split("\\.", -1);
    if (parts.length != 4
        || !parts[0].equals(VERSION)
        || parts[1].isEmpty()
        || parts[1].length() > 19
        || !(parts[2].equals(NO_BODY) || parts[2].length() == MAC_CHARACTERS)
        || parts[3].length() != MAC_CHARACTERS) {
      return null;
    }
    try {
      Long.parseLong(parts[1]);
      return new RequestSignature(parts[1], parts[2], Base64.getUrlDecoder().decode(parts[3]));
    } catch (IllegalArgumentException ex) {
      return null;
    }
  }

  /** The signature as a request carries it. */
  String text() {
    return VERSION
        + "."
        + this.timestamp
        + "."
        + this.digest
        + "."
        + BASE64.encodeToString(this.mac);
  }

  /** When it was made, in epoch milliseconds. */
  long millis() {
    return Long.parseLong(this.timestamp);
  }

  /** The SHA-256 of the body that was signed, or {@code null} when none was. */
  @Nullable String bodyDigest() {
    return this.digest.equals(NO_BODY) ? null : this.digest;
  }

  /**
   * Whether its MAC is {@code key}'s of a request with {@code method}, the path and the headers.
   */
  boolean matches(
      HmacKey key, String method, String pathAndQuery, PeerRequests.HeaderValues headers) {
    return key.matches(
        this.mac, covered(method, pathAndQuery, this.timestamp, this.digest, headers));
  }

  /** The parts a MAC covers: the request line, the timestamp, the body's digest, the headers. */
  private static byte[][] covered(
      String method,
      String pathAndQuery,
      String timestamp,
      String digest,
      PeerRequests.HeaderValues headers) {
    byte[][] parts = new byte[4 + PeerRequests.SIGNED_HEADERS.size()][];
    parts[0] = utf8(method);
    parts[1] = utf8(pathAndQuery);
    parts[2] = utf8(timestamp);
    parts[3] = utf8(digest);
    for (int i = 0; i < PeerRequests.SIGNED_HEADERS.size(); i++) {
      String value = headers.value(PeerRequests.SIGNED_HEADERS.get(i));
      parts[4 + i] = value == null ? new byte[0] : utf8("=" + value);
    }
    return parts;
  }

  private static byte[] utf8(String value) {
    return value.getBytes(StandardCharsets.UTF_8);
  }
}
