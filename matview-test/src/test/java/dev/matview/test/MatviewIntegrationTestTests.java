package dev.matview.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import tools.jackson.databind.json.JsonMapper;

/**
 * The kit's one test on a broker: the slice starts an application of three views on a broker of its
 * own, and the awaiter waits for their answers.
 */
@MatviewIntegrationTest(
    classes = MatviewIntegrationTestTests.Shop.class,
    webEnvironment = WebEnvironment.RANDOM_PORT,
    partitions = 2,
    properties = {
      "spring.kafka.streams.application-id=kit-it",
      "matview.advertised-host=localhost",
      "matview.rocksdb.total-memory=32MB"
    })
class MatviewIntegrationTestTests {

  private static final Instant MINUTE =
      Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofHours(1));

  private final JsonMapper json = JsonMapper.builder().build();

  @Autowired KafkaTemplate<String, String> kafka;

  @Autowired ViewAwaiter views;

  @Autowired EmbeddedKafkaBroker broker;

  @Autowired Environment environment;

  @LocalServerPort int port;

  @Test
  void servesOnARandomPortFromItsOwnBrokerWithTheSourceTopicCreated() throws Exception {
    assertThat(this.port).isPositive();
    assertThat(this.environment.getProperty("spring.kafka.bootstrap-servers"))
        .isEqualTo(this.broker.getBrokersAsString());
    assertThat(System.getProperty("spring.kafka.bootstrap-servers")).isNull();
    Path stateDir = Path.of(this.environment.getRequiredProperty("spring.kafka.streams.state-dir"));
    assertThat(stateDir).startsWith(Path.of(System.getProperty("java.io.tmpdir")));
    assertThat(Files.isDirectory(stateDir)).isTrue();
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, this.broker.getBrokersAsString()))) {
      TopicDescription orders =
          admin.describeTopics(List.of("orders")).allTopicNames().get().get("orders");
      assertThat(orders.partitions()).hasSize(2);
    }
  }

  @Test
  void waitsUntilAViewAnswersAKeyWithTheExpectedValue() {
    send(Order.of("alice", 1, "10.00", MINUTE));
    send(Order.of("alice", 1, "2.50", MINUTE));
    assertThat(this.views.awaitView("orders-per-customer", "alice", 2L)).isEqualTo(2L);
  }

  @Test
  void waitsUntilAViewsValuePassesAnAssertion() {
    send(Order.of("bob", 1, "10.00", MINUTE));
    send(Order.of("bob", 1, "2.75", MINUTE));
    BigDecimal total =
        this.views.awaitView(
            "revenue-per-customer",
            "bob",
            BigDecimal.class,
            revenue -> assertThat(revenue).isEqualByComparingTo("12.75"));
    assertThat(total).isEqualByComparingTo("12.75");
  }

  @Test
  void waitsUntilTheWindowsOfAKeyPassAnAssertion() {
    send(Order.of("carol", 1, "1.00", MINUTE.plusSeconds(10)));
    send(Order.of("carol", 1, "1.00", MINUTE.plusSeconds(20)));
    WindowedValue<Long> expected = new WindowedValue<>(MINUTE, MINUTE.plusSeconds(60), 2L);
    assertThat(
            this.views.awaitWindows(
                "orders-per-customer-per-minute",
                "carol",
                Long.class,
                windows -> assertThat(windows).containsExactly(expected)))
        .containsExactly(expected);
  }

  @Test
  void writesAKeyOfARecordTypeAsJson() {
    send(Order.of("dave", 3, "1.00", MINUTE));
    assertThat(
            this.views.awaitView(
                "orders-per-customer-quantity", new CustomerQuantity("dave", 3), 1L))
        .isEqualTo(1L);
  }

  @Test
  void failsWithTheLastAnswerWhenAViewDoesNotAnswerInTime() {
    send(Order.of("patience", 1, "1.00", MINUTE));
    this.views.awaitView("orders-per-customer", "patience", 1L);
    ViewAwaiter impatient = this.views.within(Duration.ofMillis(300));
    assertThatThrownBy(() -> impatient.awaitView("orders-per-customer", "nobody", 1L))
        .isInstanceOf(ConditionTimeoutException.class)
        .hasMessageContaining("View 'orders-per-customer' has no value for key nobody");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.views.within(Duration.ZERO))
        .withMessage("timeout must be positive, was PT0S");
  }

  @Test
  void refusesUnknownViewsKeysAndValuesOfOtherTypesAndTheWrongKindOfView() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.views.awaitView("orders-per-planet", "alice", 1L))
        .withMessageStartingWith("There is no view named 'orders-per-planet'; the views are [");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.views.awaitView("orders-per-customer", 42, 1L))
        .withMessage(
            "View 'orders-per-customer' has keys of type java.lang.String, not java.lang.Integer:"
                + " pass the key as a String");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.views.awaitView("orders-per-customer", "alice", 1))
        .withMessage(
            "View 'orders-per-customer' has values of type java.lang.Long, not java.lang.Integer:"
                + " expect a value of type Long");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> this.views.awaitView("orders-per-customer-per-minute", "alice", 1L))
        .withMessage(
            "View 'orders-per-customer-per-minute' is a windowed view: wait for its windows with"
                + " awaitWindows(view, key, type, assertion) instead");
    assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                this.views.awaitWindows("orders-per-customer", "alice", Long.class, windows -> {}))
        .withMessage(
            "View 'orders-per-customer' is a table: wait for its value with awaitView(view, key,"
                + " expected) instead");
  }

  private void send(Order order) {
    this.kafka.send("orders", order.orderId(), this.json.writeValueAsString(order));
  }

  /**
   * A composite key, sent as JSON.
   *
   * @param customer the customer
   * @param quantity the quantity ordered
   */
  record CustomerQuantity(String customer, long quantity) {}

  /** The application under test: four views over {@code orders}. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class Shop {

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
  }
}
