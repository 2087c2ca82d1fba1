package dev.matview.devbroker.app;

import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.math.BigDecimal;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.config.TopicBuilder;

/** A user's application as the README builds it: one view of orders, with nothing about Kafka. */
@SpringBootApplication
public class OrdersApplication {

  /** The view's source topic. */
  public static final String TOPIC = "orders";

  /** The view. */
  public static final String ORDERS_PER_CUSTOMER = "orders-per-customer";

  /** An order as published to {@link #TOPIC}. */
  public record Order(String orderId, String customerId, BigDecimal amount) {}

  @MaterializedView(ORDERS_PER_CUSTOMER)
  ViewDefinition<String, Order, Long> ordersPerCustomer() {
    return Views.from(TOPIC, Order.class).groupBy(String.class, Order::customerId).count();
  }

  @Bean
  NewTopic orders() {
    return TopicBuilder.name(TOPIC).partitions(2).replicas(1).build();
  }
}
