package dev.matview.query;

import org.jspecify.annotations.Nullable;

/**
 * Where the next page of a scan starts: a partition and the position after which to go on in it.
 *
 * @param partition the partition the next page starts in
 * @param partitionCount how many partitions the view had when the cursor was issued
 * @param boundsHash identifies the scan's bounds, so that a cursor is not used with others
 * @param after the position after which to go on, or {@code null} for the partition's start
 */
public record ScanCursor(
    int partition, int partitionCount, int boundsHash, @Nullable ScanPosition after) {}
