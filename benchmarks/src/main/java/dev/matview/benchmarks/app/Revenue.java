package dev.matview.benchmarks.app;

import dev.matview.view.Aggregation;
import java.math.BigDecimal;
import org.jspecify.annotations.Nullable;

/**
 * A customer's revenue, as the sample's {@code revenue-per-customer} view keeps it.
 *
 * @param orders the number of orders
 * @param total the sum of their amounts
 * @param max the largest amount, or null before the first order
 */
public record Revenue(long orders, BigDecimal total, @Nullable BigDecimal max) {

  /** The revenue before any order. */
  public static Revenue none() {
    return new Revenue(0, BigDecimal.ZERO, null);
  }

  /** This revenue with {@code amount} added. */
  public Revenue plus(BigDecimal amount) {
    return new Revenue(
        this.orders + 1,
        this.total.add(amount),
        this.max == null || amount.compareTo(this.max) > 0 ? amount : this.max);
  }

  /** Folds orders into a customer's revenue, as the sample's aggregator does. */
  static final class Aggregator implements Aggregation<String, Order, Revenue> {

    @Override
    public Revenue initial() {
      return none();
    }

    @Override
    public Revenue add(String customerId, Order order, @Nullable Revenue revenue) {
      return (revenue != null ? revenue : none()).plus(order.amount());
    }
  }
}
