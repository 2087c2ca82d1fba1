package dev.matview.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.faults.ViewContents.Revenue;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The ground truth the fault suite compares every instance with. */
class ViewContentsTests {

  @Test
  void expectedViewsCountSumAndWindowTheOrdersPerCustomer() {
    List<Order> orders =
        List.of(
            order("a", "12.50", "2026-05-01T12:00:56Z"),
            order("a", "7.25", "2026-05-01T12:01:00Z"),
            order("b", "3.00", "2026-05-01T12:00:59.999Z"),
            order("a", "0.25", "2026-05-01T12:01:03Z"));

    ViewContents expected = ViewContents.expectedFrom(orders);

    assertThat(expected.ordersPerCustomer()).isEqualTo(Map.of("a", 3L, "b", 1L));
    assertThat(expected.revenuePerCustomer())
        .isEqualTo(
            Map.of(
                "a", new Revenue(3, new BigDecimal("20.0"), new BigDecimal("12.5")),
                "b", new Revenue(1, new BigDecimal("3"), new BigDecimal("3.00"))));
    assertThat(expected.ordersPerMinute())
        .isEqualTo(
            Map.of(
                "a",
                Map.of(
                    Instant.parse("2026-05-01T12:00:00Z"), 1L,
                    Instant.parse("2026-05-01T12:01:00Z"), 2L),
                "b",
                Map.of(Instant.parse("2026-05-01T12:00:00Z"), 1L)));
  }

  @Test
  void aViewMissingOneOrderIsNotExact() {
    List<Order> orders =
        List.of(
            order("a", "1.00", "2026-05-01T12:00:01Z"), order("a", "2.00", "2026-05-01T12:00:02Z"));

    assertThat(ViewContents.expectedFrom(orders.subList(0, 1)))
        .isNotEqualTo(ViewContents.expectedFrom(orders));
  }

  private static Order order(String customer, String amount, String ts) {
    return new Order(
        UUID.randomUUID().toString(), customer, new BigDecimal(amount), Instant.parse(ts));
  }
}
