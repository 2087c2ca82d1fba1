package dev.matview.replica;

import org.jspecify.annotations.Nullable;

/**
 * One update of a store partition, as the store kept it: the key's bytes, the new value's bytes or
 * {@code null} when the key or window was removed, the window's bounds when the store is windowed,
 * and where in the topic that feeds the store the update came from. Window bounds are epoch
 * milliseconds, or {@link #NO_WINDOW}; {@code offset} is the record whose processing made the
 * update and {@code sequence}, from 0, its place among that record's updates.
 */
public record StoreChange(
    byte[] key,
    byte @Nullable [] value,
    long windowStart,
    long windowEnd,
    long offset,
    int sequence) {

  /** The window bound of an update of a store that keeps no windows. */
  public static final long NO_WINDOW = Long.MIN_VALUE;

  /** Whether it comes after the update at {@code offset} and {@code sequence}. */
  public boolean isAfter(long offset, int sequence) {
    return this.offset > offset || (this.offset == offset && this.sequence > sequence);
  }
}
