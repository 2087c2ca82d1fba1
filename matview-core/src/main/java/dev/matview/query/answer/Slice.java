package dev.matview.query.answer;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Part of one partition's items in scan order.
 *
 * @param items the items, at most as many as asked
 * @param last the position of the last item, or {@code null} when there is none
 * @param exhausted whether the partition has no items after these
 * @param <T> the item type
 */
public record Slice<T>(List<T> items, @Nullable ScanPosition last, boolean exhausted) {}
