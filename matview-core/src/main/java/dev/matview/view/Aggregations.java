package dev.matview.view;

import java.math.BigDecimal;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/** The built-in aggregations: count, sum, min, max and latest value. */
public final class Aggregations {

  private Aggregations() {}

  /** Counts the records of each key. */
  public static <K, V> MergeableAggregation<K, V, Long> count() {
    return new LongSum<>((value) -> 1);
  }

  /** Sums a whole-number field of each key's records. */
  public static <K, V> MergeableAggregation<K, V, Long> sum(ToLongFunction<? super V> field) {
    ViewDefinitionException.required(field, "field", "sum(field)");
    return new LongSum<>(field);
  }

  /**
   * Sums a decimal field of each key's records exactly, within {@link DecimalBounds#STANDARD};
   * records whose field is null add zero.
   */
  public static <K, V> MergeableAggregation<K, V, BigDecimal> sumDecimal(
      Function<? super V, ? extends @Nullable BigDecimal> field) {
    return sumDecimal(field, DecimalBounds.STANDARD);
  }

  /**
   * Sums a decimal field of each key's records exactly; records whose field is null add zero. A
   * field or a sum outside {@code bounds} throws {@link NumberOutOfBoundsException}, checked before
   * any arithmetic, and the sum stays as it was.
   */
  public static <K, V> MergeableAggregation<K, V, BigDecimal> sumDecimal(
      Function<? super V, ? extends @Nullable BigDecimal> field, DecimalBounds bounds) {
    ViewDefinitionException.required(field, "field", "sumDecimal(field, bounds)");
    ViewDefinitionException.required(bounds, "bounds", "sumDecimal(field, bounds)");
    return new DecimalSum<>(field, bounds);
  }

  /** Keeps the smallest value of a field among each key's records. */
  public static <K, V, T extends Comparable<? super T>> MergeableAggregation<K, V, T> min(
      Function<? super V, ? extends @Nullable T> field) {
    return new Extreme<>(field, -1);
  }

  /** Keeps the largest value of a field among each key's records. */
  public static <K, V, T extends Comparable<? super T>> MergeableAggregation<K, V, T> max(
      Function<? super V, ? extends @Nullable T> field) {
    return new Extreme<>(field, 1);
  }

  /** Keeps the value of each key's most recent record. */
  public static <K, V> MergeableAggregation<K, V, V> latest() {
    return new Latest<>();
  }

  private static final class LongSum<K, V> implements MergeableAggregation<K, V, Long> {

    private final ToLongFunction<? super V> field;

    LongSum(ToLongFunction<? super V> field) {
      this.field = field;
    }

    @Override
    public Long initial() {
      return 0L;
    }

    @Override
    public Long add(K key, V value, @Nullable Long aggregate) {
      return (aggregate != null ? aggregate : 0L) + this.field.applyAsLong(value);
    }

    @Override
    public Long merge(K key, @Nullable Long older, @Nullable Long newer) {
      return (older != null ? older : 0L) + (newer != null ? newer : 0L);
    }
  }

  private static final class DecimalSum<K, V> implements MergeableAggregation<K, V, BigDecimal> {

    private final Function<? super V, ? extends @Nullable BigDecimal> field;

    private final DecimalBounds bounds;

    DecimalSum(Function<? super V, ? extends @Nullable BigDecimal> field, DecimalBounds bounds) {
      this.field = field;
      this.bounds = bounds;
    }

    @Override
    public BigDecimal initial() {
      return BigDecimal.ZERO;
    }

    @Override
    public BigDecimal add(K key, V value, @Nullable BigDecimal aggregate) {
      BigDecimal addend = this.field.apply(value);
      BigDecimal sum = aggregate != null ? aggregate : BigDecimal.ZERO;
      return addend != null ? add(sum, addend) : sum;
    }

    @Override
    public BigDecimal merge(K key, @Nullable BigDecimal older, @Nullable BigDecimal newer) {
      BigDecimal sum = older != null ? older : BigDecimal.ZERO;
      return newer != null ? add(sum, newer) : sum;
    }

    private BigDecimal add(BigDecimal sum, BigDecimal addend) {
      return this.bounds.check(this.bounds.check(sum).add(this.bounds.check(addend)));
    }
  }

  private static final class Extreme<K, V, T extends Comparable<? super T>>
      implements MergeableAggregation<K, V, T> {

    private final Function<? super V, ? extends @Nullable T> field;

    private final int sign;

    Extreme(Function<? super V, ? extends @Nullable T> field, int sign) {
      this.field = ViewDefinitionException.required(field, "field", "min(field) or max(field)");
      this.sign = sign;
    }

    @Override
    public @Nullable T initial() {
      return null;
    }

    @Override
    public @Nullable T add(K key, V value, @Nullable T aggregate) {
      return pick(aggregate, this.field.apply(value));
    }

    @Override
    public @Nullable T merge(K key, @Nullable T older, @Nullable T newer) {
      return pick(older, newer);
    }

    private @Nullable T pick(@Nullable T current, @Nullable T candidate) {
      if (current == null) {
        return candidate;
      }
      if (candidate == null) {
        return current;
      }
      return Integer.signum(candidate.compareTo(current)) == this.sign ? candidate : current;
    }
  }

  private static final class Latest<K, V> implements MergeableAggregation<K, V, V> {

    @Override
    public @Nullable V initial() {
      return null;
    }

    @Override
    public V add(K key, V value, @Nullable V aggregate) {
      return value;
    }

    @Override
    public @Nullable V merge(K key, @Nullable V older, @Nullable V newer) {
      return newer != null ? newer : older;
    }
  }
}
