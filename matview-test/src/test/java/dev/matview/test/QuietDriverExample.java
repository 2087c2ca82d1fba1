package dev.matview.test;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A passing driver test as a user writes one, run only in a child JVM by {@link QuietOutputTests}
 * (its name is not one the build runs).
 */
class QuietDriverExample extends DriverTestSupport {

  @Test
  void countsAnOrder() {
    TestSourceTopic<String, Order> orders =
        start(ViewTestDriver.builder().view("per-customer", perCustomer()));
    orders.pipe("o-1", Order.of("quiet", 1, "1.00", T0), T0);
    assertThat(this.driver.view("per-customer", String.class, Long.class).get("quiet"))
        .isEqualTo(1L);
  }
}
