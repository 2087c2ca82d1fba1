package dev.matview.query;

import java.util.Arrays;

/**
 * Where a scan of one partition stopped: the last key returned, as stored, and for windowed views
 * the start of its last window.
 *
 * @param key the serialized key
 * @param windowStart the window's start in epoch milliseconds, or 0 for tables
 */
public record ScanPosition(byte[] key, long windowStart) {

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
