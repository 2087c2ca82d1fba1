package dev.matview.sample;

import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.time.Duration;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.TopicBuilder;

/** The {@code orders} topic and the sample's three views over it. */
@Configuration(proxyBeanMethods = false)
class OrderViews {

  static final String TOPIC = "orders";

  @Bean
  NewTopic ordersTopic() {
    return TopicBuilder.name(TOPIC).partitions(3).build();
  }

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
        .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)).withGrace(Duration.ofSeconds(10)))
        .count();
  }
}
