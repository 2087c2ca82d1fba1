package dev.matview.sample;

import java.math.BigDecimal;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * An order as published on the {@code orders} topic.
 *
 * @param orderId the order's id, also the record key
 * @param customerId the customer who ordered
 * @param amount the order's amount
 * @param ts when the order was placed
 */
public record Order(
    @Nullable String orderId, String customerId, BigDecimal amount, @Nullable Instant ts) {}
