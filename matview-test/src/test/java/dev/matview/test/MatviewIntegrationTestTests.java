package dev.matview.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggerConfiguration;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The slice starts an application of four views on a broker of its own, set through the
 * annotation's attributes, and the awaiter waits for their answers.
 */
@ShopIntegrationTest
class MatviewIntegrationTestTests {

  private static final Instant MINUTE =
      Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofHours(1));

  private final JsonMapper json = JsonMapper.builder().build();

  @Autowired KafkaTemplate<String, String> kafka;

  @Autowired ViewAwaiter views;

  @Autowired Environment environment;

  @Autowired KafkaConnectionDetails connection;

  @LocalServerPort int port;

  @Test
  void servesOnARandomPortFromItsOwnBrokerWithTheSourceTopicCreated() throws Exception {
    assertThat(this.port).isPositive();
    String brokers = this.environment.getRequiredProperty("spring.kafka.bootstrap-servers");
    assertThat(brokers).matches("127\\.0\\.0\\.1:\\d+");
    assertThat(System.getProperty("spring.kafka.bootstrap-servers")).isNull();
    assertThat(this.connection.getBootstrapServers()).containsExactly(brokers);
    Path stateDir = Path.of(this.environment.getRequiredProperty("spring.kafka.streams.state-dir"));
    assertThat(stateDir).startsWith(Path.of(System.getProperty("java.io.tmpdir")));
    assertThat(Files.isDirectory(stateDir)).isTrue();
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, brokers))) {
      TopicDescription orders =
          admin.describeTopics(List.of("orders")).allTopicNames().get().get("orders");
      assertThat(orders.partitions()).hasSize(2);
    }
  }

  @Test
  void setsKafkasLoggersToWarn() {
    assertThat(this.environment.getProperty("logging.level.org.apache.kafka")).isEqualTo("warn");
    LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());
    assertThat(logging.getLoggerConfiguration("org.apache.kafka"))
        .extracting(LoggerConfiguration::getEffectiveLevel)
        .isEqualTo(LogLevel.WARN);
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
                "orders-per-customer-quantity", new Shop.CustomerQuantity("dave", 3), 1L))
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
}
