package dev.matview.test;

import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.web.filter.OncePerRequestFilter;

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

  @Bean
  LastViewRequest lastViewRequest() {
    return new LastViewRequest();
  }

  /**
   * A composite key, sent as JSON.
   *
   * @param customer the customer
   * @param quantity the quantity ordered
   */
  record CustomerQuantity(String customer, long quantity) {}

  /** Keeps the query parameters and the position header of the last request to the views. */
  static final class LastViewRequest extends OncePerRequestFilter {

    private volatile @Nullable Seen seen;

    /** The last request to the views, or {@code null} before the first. */
    @Nullable Seen seen() {
      return this.seen;
    }

    @Override
    protected void doFilterInternal(
        HttpServletRequest request, HttpServletResponse response, FilterChain chain)
        throws ServletException, IOException {
      if (request.getRequestURI().startsWith("/views/")) {
        Map<String, List<String>> parameters =
            request.getParameterMap().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, entry -> List.of(entry.getValue())));
        this.seen = new Seen(parameters, request.getHeader(ViewAnswer.POSITION_HEADER));
      }
      chain.doFilter(request, response);
    }

    /**
     * What a request to the views carried.
     *
     * @param parameters its query parameters
     * @param position its {@code Matview-Position} header, or {@code null}
     */
    record Seen(Map<String, List<String>> parameters, @Nullable String position) {}
  }
}
