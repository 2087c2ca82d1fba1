package dev.matview.test;

import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.math.BigDecimal;
import java.time.Duration;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/** The application of the kit's slice tests: four views over {@code orders}. */
@SpringBootConfiguration
@EnableAutoConfiguration
class Shop {

  @MaterializedView("orders-per-customer")
  ViewDefinition<String, Order, Long> ordersPerCustomer() {
    return Views.from("orders", Order.class).groupBy(String.class, Order::customer).count();
  }

  @MaterializedView("revenue-per-customer")
  ViewDefinition<String, Order, BigDecimal> revenuePerCustomer() {
    return Views.from("orders", Order.class)
        .groupBy(String.class, Order::customer)
        .sumDecimal(Order::amount);
  }

  @MaterializedView("orders-per-customer-per-minute")
  ViewDefinition<String, Order, Long> ordersPerCustomerPerMinute() {
    return Views.from("orders", Order.class)
        .eventTime(Order::at)
        .groupBy(String.class, Order::customer)
        .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)))
        .count();
  }

  @MaterializedView("orders-per-customer-quantity")
  ViewDefinition<CustomerQuantity, Order, Long> ordersPerCustomerQuantity() {
    return Views.from("orders", Order.class)
        .groupBy(
            CustomerQuantity.class,
            order -> new CustomerQuantity(order.customer(), order.quantity()))
        .count();
  }

  /**
   * A composite key, sent as JSON.
   *
   * @param customer the customer
   * @param quantity the quantity ordered
   */
  record CustomerQuantity(String customer, long quantity) {}
}
