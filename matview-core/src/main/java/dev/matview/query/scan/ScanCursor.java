package dev.matview.query.scan;

import dev.matview.query.answer.ScanPosition;
import org.jspecify.annotations.Nullable;

/**
 * Where the next page of a scan starts: a partition and the position after which to go on in it.
 *
 * @param partition the partition the next page starts in
 * @param partitionCount how many partitions the view had when the cursor was issued
 * @param boundsHash identifies the scan's bounds as asked, so that a cursor is not used with others
 * @param rangeFrom the start of a window scan's time range, in epoch milliseconds, or 0
 * @param rangeTo the end of a window scan's time range, in epoch milliseconds, or 0
 * @param after the position after which to go on, or {@code null} for the partition's start
 */
public record ScanCursor(
    int partition,
    int partitionCount,
    int boundsHash,
    long rangeFrom,
    long rangeTo,
    @Nullable ScanPosition after) {

  /** The cursor of the same scan that starts at {@code after} in {@code partition}. */
  ScanCursor moveTo(int partition, @Nullable ScanPosition after) {
    return new ScanCursor(
        partition, this.partitionCount, this.boundsHash, this.rangeFrom, this.rangeTo, after);
  }
}
