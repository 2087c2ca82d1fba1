package dev.matview.query;

import java.util.Arrays;
import java.util.Base64;

/**
 * Where a scan of one partition stopped: the last key returned, as stored, and for windowed views
 * the start of its last window.
 *
 * @param key the serialized key
 * @param windowStart the window's start in epoch milliseconds, or 0 for tables
 */
public record ScanPosition(byte[] key, long windowStart) {

  /** This position as a URL-safe token, as instances pass it to each other. */
  public String toToken() {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(this.key)
        + "~"
        + this.windowStart;
  }

  /**
   * The position that {@code token} stands for.
   *
   * @throws IllegalArgumentException when {@code token} is not a position token
   */
  public static ScanPosition fromToken(String token) {
    int separator = token.lastIndexOf('~');
    if (separator < 0) {
      throw new IllegalArgumentException("'" + token + "' is not a scan position");
    }
    return new ScanPosition(
        Base64.getUrlDecoder().decode(token.substring(0, separator)),
        Long.parseLong(token.substring(separator + 1)));
  }

  /** Orders positions as the scan visits them: by key bytes, then window start. */
  public int compareTo(byte[] otherKey, long otherStart) {
    int byKey = Arrays.compareUnsigned(this.key, otherKey);
    return byKey != 0 ? byKey : Long.compare(this.windowStart, otherStart);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ScanPosition position
        && Arrays.equals(this.key, position.key)
        && this.windowStart == position.windowStart;
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(this.key) + Long.hashCode(this.windowStart);
  }

  @Override
  public String toString() {
    return "ScanPosition[" + this.key.length + " key bytes, windowStart=" + this.windowStart + "]";
  }
}
