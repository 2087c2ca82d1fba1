package dev.matview.query.answer;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of a scan over all partitions.
 *
 * @param items the items, ordered by partition, then key
 * @param nextCursor where the next page starts, or {@code null} after the last page
 * @param <T> the item type
 */
public record ScanPage<T>(List<T> items, @Nullable String nextCursor) {}
