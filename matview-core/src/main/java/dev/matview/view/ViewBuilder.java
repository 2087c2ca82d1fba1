package dev.matview.view;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

/**
 * Builds a {@link ViewDefinition} step by step: source options, grouping, window, then the
 * aggregation that ends the definition.
 *
 * @param <K> the key the view groups by
 * @param <V> the source record's value type
 */
public final class ViewBuilder<K, V> {

  private final ViewSource<?, V> source;

  private final Class<K> keyType;

  private final @Nullable Function<? super V, ? extends @Nullable K> keySelector;

  private final @Nullable ViewWindow window;

  private ViewBuilder(
      ViewSource<?, V> source,
      Class<K> keyType,
      @Nullable Function<? super V, ? extends @Nullable K> keySelector,
      @Nullable ViewWindow window) {
    this.source = source;
    this.keyType = keyType;
    this.keySelector = keySelector;
    this.window = window;
  }

  static <SK, V> ViewBuilder<SK, V> forSource(ViewSource<SK, V> source) {
    return new ViewBuilder<>(source, source.keyType(), null, null);
  }

  /** Reads record values with {@code serde} instead of as JSON. */
  public ViewBuilder<K, V> valueSerde(Serde<V> serde) {
    Objects.requireNonNull(serde, "serde must not be null");
    return withSource(
        new ViewSource<>(
            this.source.topic(),
            this.source.keyType(),
            this.source.valueType(),
            serde,
            this.source.eventTime()));
  }

  /** Takes each record's event time from its value instead of the record timestamp. */
  public ViewBuilder<K, V> eventTime(Function<? super V, ? extends @Nullable Instant> eventTime) {
    Objects.requireNonNull(eventTime, "eventTime must not be null");
    return withSource(
        new ViewSource<>(
            this.source.topic(),
            this.source.keyType(),
            this.source.valueType(),
            this.source.valueSerde(),
            eventTime));
  }

  /**
   * Groups records by a key computed from their value, through a repartition topic; records whose
   * computed key is null are skipped.
   */
  public <NK> ViewBuilder<NK, V> groupBy(
      Class<NK> keyType, Function<? super V, ? extends @Nullable NK> keySelector) {
    Objects.requireNonNull(keyType, "keyType must not be null");
    Objects.requireNonNull(keySelector, "keySelector must not be null");
    return new ViewBuilder<>(this.source, keyType, keySelector, this.window);
  }

  /** Aggregates per key and window instead of per key. */
  public ViewBuilder<K, V> windowedBy(ViewWindow window) {
    Objects.requireNonNull(window, "window must not be null");
    return new ViewBuilder<>(this.source, this.keyType, this.keySelector, window);
  }

  /** The view counts records per key. */
  public ViewDefinition<K, V, Long> count() {
    return aggregate(Long.class, Aggregations.count());
  }

  /** The view sums a whole-number field per key. */
  public ViewDefinition<K, V, Long> sum(ToLongFunction<? super V> field) {
    return aggregate(Long.class, Aggregations.sum(field));
  }

  /** The view sums a decimal field per key, exactly. */
  public ViewDefinition<K, V, BigDecimal> sumDecimal(
      Function<? super V, ? extends @Nullable BigDecimal> field) {
    return aggregate(BigDecimal.class, Aggregations.sumDecimal(field));
  }

  /** The view keeps the smallest value of a field per key. */
  public <T extends Comparable<? super T>> ViewDefinition<K, V, T> min(
      Class<T> type, Function<? super V, ? extends @Nullable T> field) {
    return aggregate(type, Aggregations.min(field));
  }

  /** The view keeps the largest value of a field per key. */
  public <T extends Comparable<? super T>> ViewDefinition<K, V, T> max(
      Class<T> type, Function<? super V, ? extends @Nullable T> field) {
    return aggregate(type, Aggregations.max(field));
  }

  /**
   * The view keeps the most recent value per key, stored by the source's value serde when {@link
   * #valueSerde} gave one, else as JSON.
   */
  public ViewDefinition<K, V, V> latest() {
    ViewDefinition<K, V, V> latest = aggregate(this.source.valueType(), Aggregations.latest());
    Serde<V> serde = this.source.valueSerde();
    return (serde != null) ? latest.withAggregateSerde(serde) : latest;
  }

  /**
   * The view folds records with a custom aggregation; session windows need a {@link
   * MergeableAggregation}.
   */
  public <A> ViewDefinition<K, V, A> aggregate(
      Class<A> aggregateType, Aggregation<? super K, ? super V, A> aggregation) {
    return new ViewDefinition<>(
        this.source, this.keyType, this.keySelector, this.window, aggregation, aggregateType, null);
  }

  private ViewBuilder<K, V> withSource(ViewSource<?, V> newSource) {
    return new ViewBuilder<>(newSource, this.keyType, this.keySelector, this.window);
  }
}
