package dev.matview.sample;

import dev.matview.view.Aggregation;
import java.math.BigDecimal;
import org.jspecify.annotations.Nullable;

/**
 * A customer's revenue: how many orders, their total and the largest amount.
 *
 * @param orders the number of orders
 * @param total the sum of their amounts
 * @param max the largest amount, or null before the first order
 */
public record Revenue(long orders, BigDecimal total, @Nullable BigDecimal max) {

  /** Folds orders into a customer's revenue. */
  static final class Aggregator implements Aggregation<String, Order, Revenue> {

    @Override
    public Revenue initial() {
      return new Revenue(0, BigDecimal.ZERO, null);
    }

    @Override
    public Revenue add(String customerId, Order order, @Nullable Revenue revenue) {
      Revenue current = revenue != null ? revenue : initial();
      BigDecimal max = current.max();
      return new Revenue(
          current.orders() + 1,
          current.total().add(order.amount()),
          max == null || order.amount().compareTo(max) > 0 ? order.amount() : max);
    }
  }
}
