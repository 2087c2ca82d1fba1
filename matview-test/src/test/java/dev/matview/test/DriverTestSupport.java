package dev.matview.test;

import dev.matview.view.Aggregation;
import dev.matview.view.ViewBuilder;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;

/** A driver per test over the topic {@code orders}, closed after the test, and views over it. */
abstract class DriverTestSupport {

  static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  ViewTestDriver driver;

  @AfterEach
  void closeDriver() {
    if (this.driver != null) {
      this.driver.close();
    }
  }

  /** Builds the driver and returns its topic {@code orders}. */
  TestSourceTopic<String, Order> start(ViewTestDriver.Builder builder) {
    this.driver = builder.build();
    return this.driver.sourceTopic("orders", String.class, Order.class);
  }

  /** Orders grouped by customer. */
  static ViewBuilder<String, Order> byCustomer() {
    return Views.from("orders", Order.class).groupBy(String.class, Order::customer);
  }

  /** Orders at their own time, grouped by customer. */
  static ViewBuilder<String, Order> byCustomerAtOrderTime() {
    return Views.from("orders", Order.class)
        .eventTime(Order::at)
        .groupBy(String.class, Order::customer);
  }

  /** Counts orders per customer. */
  static ViewDefinition<String, Order, Long> perCustomer() {
    return byCustomer().count();
  }

  /** Counts orders per customer and minute of the order's time, with {@code grace}. */
  static ViewDefinition<String, Order, Long> perMinute(Duration grace) {
    return byCustomerAtOrderTime()
        .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)).withGrace(grace))
        .count();
  }

  /** Counts records, and throws at a quantity of 13; it cannot merge sessions. */
  static final class Picky implements Aggregation<String, Order, Long> {

    @Override
    public Long initial() {
      return 0L;
    }

    @Override
    public Long add(String customer, Order order, @Nullable Long count) {
      if (order.quantity() == 13) {
        throw new IllegalArgumentException("13 is unlucky");
      }
      return (count != null ? count : 0L) + 1;
    }
  }
}
