package dev.matview.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.matview.topology.InvalidViewException;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A driver built from the configuration classes that declare the views, as the starter reads them.
 */
class ViewTestDriverConfigurationTests extends DriverTestSupport {

  @Test
  void namesTheViewsAsTheStarterDoesAndCreatesNoOtherBean() {
    try (ViewTestDriver driver = ViewTestDriver.builder().viewsOf(ShopViews.class).build()) {
      TestSourceTopic<String, Order> orders =
          driver.sourceTopic("orders", String.class, Order.class);
      orders.pipe("o-1", Order.of("alice", 1, "1.00", T0), T0);
      assertThat(driver.view("orders-per-customer", String.class, Long.class).get("alice"))
          .isEqualTo(1L);
      assertThat(driver.view("ordersPerOrder", String.class, Long.class).get("o-1")).isEqualTo(1L);
    }
  }

  @Test
  void refusesConfigurationsThatDeclareNoView() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ViewTestDriver.builder().viewsOf(NoViews.class))
        .withMessage(
            "[dev.matview.test.ViewTestDriverConfigurationTests$NoViews] declare no view: annotate"
                + " methods that return a ViewDefinition with @MaterializedView, or add views with"
                + " view(name, definition)");
  }

  @Test
  void refusesTwoBeansThatDeclareTheSameView() {
    assertThatThrownBy(() -> ViewTestDriver.builder().viewsOf(ShopViews.class, SameName.class))
        .isInstanceOf(InvalidViewException.class)
        .hasMessageContaining("give each @MaterializedView a distinct name");
  }

  /** Two views, one named by its bean, and a bean that could not be created. */
  @Configuration(proxyBeanMethods = false)
  static class ShopViews {

    @MaterializedView("orders-per-customer")
    ViewDefinition<String, Order, Long> ordersPerCustomer() {
      return perCustomer();
    }

    @MaterializedView
    ViewDefinition<String, Order, Long> ordersPerOrder() {
      return Views.from("orders", Order.class).count();
    }

    @Bean
    String greeting(Runnable missing) {
      return "never created";
    }
  }

  /** Another view under a name {@link ShopViews} already gives. */
  @Configuration(proxyBeanMethods = false)
  static class SameName {

    @MaterializedView("orders-per-customer")
    ViewDefinition<String, Order, Long> alsoPerCustomer() {
      return Views.from("orders", Order.class).count();
    }
  }

  /** No view at all. */
  @Configuration(proxyBeanMethods = false)
  static class NoViews {

    @Bean
    String greeting() {
      return "hello";
    }
  }
}
