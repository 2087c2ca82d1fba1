package dev.matview.test;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * An order, the source record of the kit's test views.
 *
 * @param orderId the order's id
 * @param customer who ordered
 * @param quantity how many items
 * @param amount what it cost
 * @param at when it was placed
 */
record Order(String orderId, String customer, long quantity, BigDecimal amount, Instant at) {

  /** An order of {@code customer} with the given quantity and amount, placed {@code at}. */
  static Order of(String customer, long quantity, String amount, Instant at) {
    return new Order("order-of-" + customer, customer, quantity, new BigDecimal(amount), at);
  }
}
