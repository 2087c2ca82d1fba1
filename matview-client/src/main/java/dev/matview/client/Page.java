package dev.matview.client;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of a scan.
 *
 * @param items the page's items, in the scan's order
 * @param nextCursor where the next page starts, {@code null} after the last page
 * @param <T> the type of the items
 */
public record Page<T>(List<T> items, @Nullable String nextCursor) {

  /** Keeps its own copy of the items. */
  public Page {
    items = List.copyOf(items);
  }

  /** Whether a page follows this one. */
  public boolean hasNext() {
    return this.nextCursor != null;
  }
}
