package dev.matview.benchmarks.app;

import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Configuration;

/**
 * The sample's three views over {@code bench.topic}; {@code bench.views.<name>=false} leaves one
 * out where a benchmark measures another alone. A fourth, {@code order-by-id}, keeps each order by
 * its record key, without re-keying; it is there only with {@code bench.views.order-by-id=true}.
 */
@Configuration(proxyBeanMethods = false)
class BenchViews {

  private final String topic;

  BenchViews(@Value("${bench.topic:orders}") String topic) {
    this.topic = topic;
  }

  @MaterializedView("orders-per-customer")
  @ConditionalOnProperty(name = "bench.views.orders-per-customer", matchIfMissing = true)
  ViewDefinition<String, Order, Long> ordersPerCustomer() {
    return Views.from(this.topic, Order.class).groupBy(String.class, Order::customerId).count();
  }

  @MaterializedView("revenue-per-customer")
  @ConditionalOnProperty(name = "bench.views.revenue-per-customer", matchIfMissing = true)
  ViewDefinition<String, Order, Revenue> revenuePerCustomer() {
    return Views.from(this.topic, Order.class)
        .groupBy(String.class, Order::customerId)
        .aggregate(Revenue.class, new Revenue.Aggregator());
  }

  @MaterializedView("orders-per-customer-per-minute")
  @ConditionalOnProperty(name = "bench.views.orders-per-customer-per-minute", matchIfMissing = true)
  ViewDefinition<String, Order, Long> ordersPerCustomerPerMinute() {
    return Views.from(this.topic, Order.class)
        .eventTime(Order::ts)
        .groupBy(String.class, Order::customerId)
        .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)).withGrace(Duration.ofSeconds(10)))
        .count();
  }

  @MaterializedView("order-by-id")
  @ConditionalOnProperty(name = "bench.views.order-by-id", havingValue = "true")
  ViewDefinition<String, Order, Order> orderById() {
    return Views.from(this.topic, Order.class).latest();
  }
}
