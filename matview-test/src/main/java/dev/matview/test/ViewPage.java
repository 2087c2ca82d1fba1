package dev.matview.test;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of a scan of a view's keys.
 *
 * @param items the keys and their values, by partition, then key
 * @param nextCursor where the next page starts, or {@code null} after the last page
 * @param <K> the view's key type
 * @param <A> the view's value type
 */
public record ViewPage<K, A>(List<ViewEntry<K, A>> items, @Nullable String nextCursor) {

  /** A page; the items are copied. */
  public ViewPage {
    items = List.copyOf(items);
  }
}
