package dev.matview.query.answer;

import java.util.Arrays;

/**
 * Where a scan of one partition stopped: the last key returned, as stored, and for windowed views
 * the start of its last window.
 *
 * @param key the serialized key
 * @param windowStart the window's start in epoch milliseconds, or 0 for tables
 */
public record ScanPosition(byte[] key, long windowStart) {

  /**
   * Orders positions as window and session stores keep them within a segment, which is the order a
   * scan visits them in: by the key's bytes followed by the window start's eight big-endian bytes.
   */
  public int compareTo(byte[] otherKey, long otherStart) {
    int common = Math.min(this.key.length, otherKey.length);
    int mismatch = Arrays.mismatch(this.key, 0, common, otherKey, 0, common);
    if (mismatch >= 0) {
      return Byte.compareUnsigned(this.key[mismatch], otherKey[mismatch]);
    }
    int length = Math.max(this.key.length, otherKey.length) + Long.BYTES;
    for (int index = common; index < length; index++) {
      int left = storedByte(this.key, this.windowStart, index);
      int right = storedByte(otherKey, otherStart, index);
      if (left != right) {
        return Integer.compare(left, right);
      }
    }
    return 0;
  }

  /** The byte at {@code index} of the key followed by the start, or -1 past their end. */
  private static int storedByte(byte[] key, long start, int index) {
    if (index < key.length) {
      return key[index] & 0xff;
    }
    int shift = Long.BYTES - 1 - (index - key.length);
    return shift >= 0 ? (int) (start >>> (8 * shift)) & 0xff : -1;
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
