package dev.matview.benchmarks.app;

import java.math.BigDecimal;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * An order as the sample publishes it.
 *
 * @param orderId the order's id, also the record key
 * @param customerId the customer who ordered
 * @param amount the order's amount
 * @param ts when the order was placed
 */
public record Order(
    @Nullable String orderId, String customerId, BigDecimal amount, @Nullable Instant ts) {}
