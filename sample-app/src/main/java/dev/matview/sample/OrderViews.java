package dev.matview.sample;

import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.time.Duration;
import org.springframework.context.annotation.Configuration;

/** The sample's three views over the {@code orders} topic. */
@Configuration(proxyBeanMethods = false)
class OrderViews {

  static final String TOPIC = "orders";

  @MaterializedView("orders-per-customer")
  ViewDefinition<String, Order, Long> ordersPerCustomer() {
    return Views.from(TOPIC, Order.class).groupBy(String.class, Order::customerId).count();
  }

  @MaterializedView("revenue-per-customer")
  ViewDefinition<String, Order, Revenue> revenuePerCustomer() {
    return Views.from(TOPIC, Order.class)
        .groupBy(String.class, Order::customerId)
        .aggregate(Revenue.class, new Revenue.Aggregator());
  }

  @MaterializedView("orders-per-customer-per-minute")
  ViewDefinition<String, Order, Long> ordersPerCustomerPerMinute() {
    return Views.from(TOPIC, Order.class)
        .eventTime(Order::ts)
        .groupBy(String.class, Order::customerId)
        .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)))
        .count();
  }
}
