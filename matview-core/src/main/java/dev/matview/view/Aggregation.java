package dev.matview.view;

import org.jspecify.annotations.Nullable;

/**
 * Folds the records of one key into an aggregate, starting from {@link #initial()}.
 *
 * @param <K> the view's key type
 * @param <V> the source record's value type
 * @param <A> the aggregate type
 */
public interface Aggregation<K, V, A> {

  /** The aggregate of a key that has no records yet; may be {@code null}. */
  @Nullable A initial();

  /**
   * The aggregate after {@code value} has been added to {@code aggregate}; null removes the key.
   */
  @Nullable A add(K key, V value, @Nullable A aggregate);
}
