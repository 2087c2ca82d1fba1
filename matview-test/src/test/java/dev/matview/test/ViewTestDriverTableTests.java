package dev.matview.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.matview.deadletter.DeadLetterReason;
import dev.matview.view.Aggregation;
import dev.matview.view.DecimalBounds;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/** Table views on the driver: every built-in aggregation, a custom one, key types and scans. */
class ViewTestDriverTableTests extends DriverTestSupport {

  @Test
  void countsTheRecordsOfEachKeyComputedFromTheValue() {
    TestSourceTopic<String, Order> orders =
        start(ViewTestDriver.builder().view("per-customer", perCustomer()));
    orders.pipe("o-1", Order.of("alice", 1, "10.00", T0), T0);
    orders.pipe("o-2", Order.of("bob", 1, "10.00", T0), T0);
    orders.pipe("o-3", Order.of("alice", 1, "10.00", T0), T0);
    TestView<String, Long> view = this.driver.view("per-customer", String.class, Long.class);
    assertThat(view.name()).isEqualTo("per-customer");
    assertThat(view.get("alice")).isEqualTo(2L);
    assertThat(view.get("bob")).isEqualTo(1L);
    assertThat(view.get("carol")).isNull();
  }

  @Test
  void sumsAWholeNumberFieldPerRecordKey() {
    TestSourceTopic<String, Order> orders =
        start(
            ViewTestDriver.builder()
                .view("items", Views.from("orders", Order.class).sum(Order::quantity)));
    orders.pipe("shop-1", Order.of("alice", 3, "1.00", T0), T0);
    orders.pipe("shop-1", Order.of("bob", 4, "1.00", T0), T0);
    assertThat(this.driver.view("items", String.class, Long.class).get("shop-1")).isEqualTo(7L);
  }

  @Test
  void sumsADecimalFieldExactly() {
    TestSourceTopic<String, Order> orders =
        start(ViewTestDriver.builder().view("revenue", byCustomer().sumDecimal(Order::amount)));
    orders.pipe("o-1", Order.of("alice", 1, "0.10", T0), T0);
    orders.pipe("o-2", Order.of("alice", 1, "0.20", T0), T0);
    assertThat(this.driver.view("revenue", String.class, BigDecimal.class).get("alice"))
        .isEqualByComparingTo("0.30");
  }

  @Test
  void keepsTheSmallestAndTheLargestValueOfAField() {
    TestSourceTopic<String, Order> orders =
        start(
            ViewTestDriver.builder()
                .view("smallest", byCustomer().min(BigDecimal.class, Order::amount))
                .view("largest", byCustomer().max(BigDecimal.class, Order::amount)));
    for (String amount : List.of("5.00", "2.50", "9.75", "3.00")) {
      orders.pipe("o-" + amount, Order.of("alice", 1, amount, T0), T0);
    }
    assertThat(this.driver.view("smallest", String.class, BigDecimal.class).get("alice"))
        .isEqualByComparingTo("2.50");
    assertThat(this.driver.view("largest", String.class, BigDecimal.class).get("alice"))
        .isEqualByComparingTo("9.75");
  }

  @Test
  void keepsTheLatestValueOfEachKey() {
    TestSourceTopic<String, Order> orders =
        start(ViewTestDriver.builder().view("latest", Views.from("orders", Order.class).latest()));
    orders.pipe("o-1", Order.of("alice", 1, "1.00", T0), T0);
    orders.pipe("o-1", Order.of("alice", 2, "4.00", T0), T0);
    assertThat(this.driver.view("latest", String.class, Order.class).get("o-1"))
        .isEqualTo(Order.of("alice", 2, "4.00", T0));
  }

  @Test
  void foldsRecordsWithACustomAggregation() {
    TestSourceTopic<String, Order> orders =
        start(
            ViewTestDriver.builder()
                .view("baskets", byCustomer().aggregate(Basket.class, new Basket.Aggregator())));
    orders.pipe("o-1", new Order("o-1", "alice", 1, BigDecimal.ONE, T0), T0);
    orders.pipe("o-2", new Order("o-2", "alice", 1, BigDecimal.ONE, T0), T0);
    assertThat(this.driver.view("baskets", String.class, Basket.class).get("alice"))
        .isEqualTo(new Basket(List.of("o-1", "o-2")));
  }

  @Test
  void readsRecordKeysAndViewKeysOfOtherTypes() {
    ViewDefinition<CustomerQuantity, Order, Long> perCustomerQuantity =
        Views.from("orders", Long.class, Order.class)
            .groupBy(
                CustomerQuantity.class,
                order -> new CustomerQuantity(order.customer(), order.quantity()))
            .count();
    this.driver =
        ViewTestDriver.builder()
            .view("per-shop", Views.from("orders", Long.class, Order.class).count())
            .view("per-customer-quantity", perCustomerQuantity)
            .build();
    TestSourceTopic<Long, Order> orders =
        this.driver.sourceTopic("orders", Long.class, Order.class);
    orders.pipe(7L, Order.of("alice", 2, "1.00", T0), T0);
    orders.pipe(7L, Order.of("alice", 2, "1.00", T0), T0);
    assertThat(orders.name()).isEqualTo("orders");
    assertThat(this.driver.view("per-shop", Long.class, Long.class).get(7L)).isEqualTo(2L);
    assertThat(
            this.driver
                .view("per-customer-quantity", CustomerQuantity.class, Long.class)
                .get(new CustomerQuantity("alice", 2)))
        .isEqualTo(2L);
  }

  @Test
  void scansEveryKeyOrARangeOfKeysInKeyOrder() {
    TestSourceTopic<String, Order> orders =
        start(ViewTestDriver.builder().view("per-customer", perCustomer()));
    for (String customer : List.of("dave", "alice", "carol", "bob", "alice")) {
      orders.pipe("o", Order.of(customer, 1, "1.00", T0), T0);
    }
    TestView<String, Long> view = this.driver.view("per-customer", String.class, Long.class);
    assertThat(view.scan())
        .containsExactly(
            entry("alice", 2L), entry("bob", 1L), entry("carol", 1L), entry("dave", 1L));
    assertThat(view.scan("b", "carol")).containsExactly(entry("bob", 1L), entry("carol", 1L));
    assertThat(view.scan(null, "b")).containsExactly(entry("alice", 2L));
    assertThat(view.scan("cz", null)).containsExactly(entry("dave", 1L));
  }

  @Test
  void readsJsonWithTheApplicationsMapper() {
    JsonMapper snakeCase =
        JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
    TestSourceTopic<String, Order> orders =
        start(ViewTestDriver.builder().jsonMapper(snakeCase).view("per-customer", perCustomer()));
    String json =
        """
        {"order_id": "o-1", "customer": "alice", "quantity": 1, "amount": 1.00,
         "at": "2026-03-01T10:00:00Z"}""";
    orders.pipeRaw("o-1", json.getBytes(StandardCharsets.UTF_8), T0);
    orders.pipe("o-2", Order.of("alice", 1, "1.00", T0), T0);
    assertThat(this.driver.view("per-customer", String.class, Long.class).get("alice"))
        .isEqualTo(2L);
    assertThat(this.driver.deadLetters()).isEmpty();
  }

  @Test
  void refusesDecimalsOutsideTheGivenBounds() {
    TestSourceTopic<String, Order> orders =
        start(
            ViewTestDriver.builder()
                .decimalBounds(new DecimalBounds(6, 2))
                .view("revenue", byCustomer().sumDecimal(Order::amount)));
    orders.pipe("o-1", Order.of("alice", 1, "9000.00", T0), T0);
    orders.pipe("o-2", Order.of("alice", 1, "0.125", T0), T0);
    orders.pipe("o-3", Order.of("alice", 1, "2000.00", T0), T0);
    assertThat(this.driver.view("revenue", String.class, BigDecimal.class).get("alice"))
        .isEqualByComparingTo("9000.00");
    assertThat(this.driver.deadLetters())
        .extracting(DeadLetterRecord::reason)
        .containsExactly(
            DeadLetterReason.NUMBER_OUT_OF_BOUNDS, DeadLetterReason.NUMBER_OUT_OF_BOUNDS);
  }

  /**
   * The ids of a customer's orders.
   *
   * @param orderIds the ids, in the order placed
   */
  record Basket(List<String> orderIds) {

    /** Adds each order's id to the customer's basket. */
    static final class Aggregator implements Aggregation<String, Order, Basket> {

      @Override
      public Basket initial() {
        return new Basket(List.of());
      }

      @Override
      public Basket add(String customer, Order order, @Nullable Basket basket) {
        List<String> ids = new ArrayList<>(basket != null ? basket.orderIds() : List.of());
        ids.add(order.orderId());
        return new Basket(ids);
      }
    }
  }

  /**
   * A composite key, stored as JSON.
   *
   * @param customer the customer
   * @param quantity the quantity ordered
   */
  record CustomerQuantity(String customer, long quantity) {}
}
