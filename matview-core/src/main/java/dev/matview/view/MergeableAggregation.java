package dev.matview.view;

import org.jspecify.annotations.Nullable;

/**
 * An aggregation whose partial results can be merged, as session windows need when a record joins
 * two sessions into one.
 *
 * @param <K> the view's key type
 * @param <V> the source record's value type
 * @param <A> the aggregate type
 */
public interface MergeableAggregation<K, V, A> extends Aggregation<K, V, A> {

  /** The aggregate of two adjacent sessions, {@code older} before {@code newer}. */
  @Nullable A merge(K key, @Nullable A older, @Nullable A newer);
}
