package dev.matview.faults;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the sample's three views hold, key by key: computed from the published orders, or read from
 * an instance.
 *
 * @param ordersPerCustomer {@code orders-per-customer}: orders per customer
 * @param revenuePerCustomer {@code revenue-per-customer}: orders, total and largest amount
 * @param ordersPerMinute {@code orders-per-customer-per-minute}: per customer, orders per window
 *     start
 */
record ViewContents(
    Map<String, Long> ordersPerCustomer,
    Map<String, Revenue> revenuePerCustomer,
    Map<String, Map<Instant, Long>> ordersPerMinute) {

  static final String ORDERS_PER_CUSTOMER = "orders-per-customer";

  static final String REVENUE_PER_CUSTOMER = "revenue-per-customer";

  static final String ORDERS_PER_MINUTE = "orders-per-customer-per-minute";

  private static final long MINUTE = Duration.ofMinutes(1).toMillis();

  /** What the views must hold once they have processed exactly {@code orders}. */
  static ViewContents expectedFrom(Collection<Order> orders) {
    Map<String, Long> counts = new TreeMap<>();
    Map<String, Revenue> revenue = new TreeMap<>();
    Map<String, Map<Instant, Long>> windows = new TreeMap<>();
    for (Order order : orders) {
      counts.merge(order.customerId(), 1L, Long::sum);
      revenue.merge(order.customerId(), Revenue.of(order.amount()), Revenue::plus);
      Instant start =
          Instant.ofEpochMilli(Math.floorDiv(order.ts().toEpochMilli(), MINUTE) * MINUTE);
      windows
          .computeIfAbsent(order.customerId(), key -> new TreeMap<>())
          .merge(start, 1L, Long::sum);
    }
    return new ViewContents(counts, revenue, windows);
  }

  /**
   * A customer's revenue with its amounts compared by value ({@code 12.50} equals {@code 12.5}).
   *
   * @param orders the number of orders
   * @param total the sum of their amounts
   * @param max the largest amount
   */
  record Revenue(long orders, BigDecimal total, BigDecimal max) {

    Revenue {
      total = total.stripTrailingZeros();
      max = max.stripTrailingZeros();
    }

    static Revenue of(BigDecimal amount) {
      return new Revenue(1, amount, amount);
    }

    Revenue plus(Revenue other) {
      return new Revenue(
          this.orders + other.orders, this.total.add(other.total), this.max.max(other.max));
    }
  }
}
