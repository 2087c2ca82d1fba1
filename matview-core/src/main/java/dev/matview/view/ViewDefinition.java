package dev.matview.view;

import java.time.Instant;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

/**
 * What a materialized view computes: its source topic and types, how records are grouped, the
 * aggregation and an optional window. Built with {@link Views#from(String, Class)}.
 *
 * @param <K> the view's key type
 * @param <V> the source record's value type
 * @param <A> the aggregate type, the view's value
 */
public final class ViewDefinition<K, V, A> {

  private final ViewSource<?, V> source;

  private final Class<K> keyType;

  private final @Nullable Function<? super V, ? extends @Nullable K> keySelector;

  private final @Nullable ViewWindow window;

  private final Aggregation<? super K, ? super V, A> aggregation;

  private final Class<A> aggregateType;

  private final @Nullable Serde<A> aggregateSerde;

  ViewDefinition(
      ViewSource<?, V> source,
      Class<K> keyType,
      @Nullable Function<? super V, ? extends @Nullable K> keySelector,
      @Nullable ViewWindow window,
      Aggregation<? super K, ? super V, A> aggregation,
      Class<A> aggregateType,
      @Nullable Serde<A> aggregateSerde) {
    this.source = source;
    this.keyType = keyType;
    this.keySelector = keySelector;
    this.window = window;
    this.aggregation =
        ViewDefinitionException.required(
            aggregation, "aggregation", "aggregate(aggregateType, aggregation)");
    this.aggregateType =
        ViewDefinitionException.required(
            aggregateType, "aggregateType", "aggregate(aggregateType, aggregation)");
    this.aggregateSerde = aggregateSerde;
  }

  /** This view with its aggregates stored by {@code serde} instead of as JSON. */
  public ViewDefinition<K, V, A> withAggregateSerde(Serde<A> serde) {
    ViewDefinitionException.required(serde, "serde", "withAggregateSerde(serde)");
    return new ViewDefinition<>(
        this.source,
        this.keyType,
        this.keySelector,
        this.window,
        this.aggregation,
        this.aggregateType,
        serde);
  }

  /** Where the view's records come from. */
  public ViewSource<?, V> source() {
    return this.source;
  }

  /** The type of the view's key. */
  public Class<K> keyType() {
    return this.keyType;
  }

  /** Computes the view's key from a record's value, or {@code null} to group by the record key. */
  public @Nullable Function<? super V, ? extends @Nullable K> keySelector() {
    return this.keySelector;
  }

  /** Whether records are re-keyed by a value, which goes through a repartition topic. */
  public boolean isRekeyed() {
    return this.keySelector != null;
  }

  /** The view's window, or {@code null} for a table that keeps one value per key. */
  public @Nullable ViewWindow window() {
    return this.window;
  }

  /** The aggregation that folds a key's records into its value. */
  public Aggregation<? super K, ? super V, A> aggregation() {
    return this.aggregation;
  }

  /** The type of the view's value. */
  public Class<A> aggregateType() {
    return this.aggregateType;
  }

  /** The serde of the view's value, or {@code null} for the default. */
  public @Nullable Serde<A> aggregateSerde() {
    return this.aggregateSerde;
  }

  /** Whether the view is a table, windowed or session view. */
  public ViewKind kind() {
    if (this.window == null) {
      return ViewKind.TABLE;
    }
    return this.window.type() == ViewWindow.Type.SESSION ? ViewKind.SESSION : ViewKind.WINDOWED;
  }

  /** The function that reads a record's event time from its value, if any. */
  public @Nullable Function<? super V, ? extends @Nullable Instant> eventTime() {
    return this.source.eventTime();
  }
}
