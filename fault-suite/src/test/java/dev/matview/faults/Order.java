package dev.matview.faults;

import java.math.BigDecimal;
import java.time.Instant;
import tools.jackson.databind.JsonNode;

/**
 * An order as the suite publishes it on the {@code orders} topic, keyed by its id.
 *
 * @param orderId the order's id, also the record key
 * @param customerId the customer who ordered
 * @param amount the amount, with two decimals
 * @param ts the event time
 */
record Order(String orderId, String customerId, BigDecimal amount, Instant ts) {

  /** The order as the JSON value of its record. */
  String toJson() {
    return "{\"orderId\":\""
        + this.orderId
        + "\",\"customerId\":\""
        + this.customerId
        + "\",\"amount\":"
        + this.amount.toPlainString()
        + ",\"ts\":\""
        + this.ts
        + "\"}";
  }

  /** Reads an order from the JSON value of its record. */
  static Order fromJson(JsonNode json) {
    return new Order(
        json.get("orderId").asString(),
        json.get("customerId").asString(),
        json.get("amount").decimalValue(),
        Instant.parse(json.get("ts").asString()));
  }
}
