package dev.matview.sample;

import static dev.matview.sample.OrderViewsClient.ORDERS_PER_CUSTOMER;
import static dev.matview.sample.OrderViewsClient.ORDERS_PER_CUSTOMER_PER_MINUTE;
import static dev.matview.sample.OrderViewsClient.REVENUE_PER_CUSTOMER;
import static dev.matview.sample.OrderViewsClient.assertThatRevenue;
import static dev.matview.sample.OrderViewsClient.revenue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.deadletter.DeadLetterReason;
import dev.matview.test.DeadLetterRecord;
import dev.matview.test.TestSourceTopic;
import dev.matview.test.TestView;
import dev.matview.test.ViewTestDriver;
import dev.matview.test.WindowedValue;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The sample's three views on Matview's test driver, without a broker. */
class OrderViewsTests {

  private static final Instant MINUTE_0 = Instant.parse("2026-05-01T12:00:00Z");

  private static final Instant MINUTE_1 = MINUTE_0.plus(Duration.ofMinutes(1));

  private final ViewTestDriver driver =
      ViewTestDriver.builder()
          .viewsOf(OrderViews.class)
          .applicationId("matview-sample")
          .wallClockTime(MINUTE_0.plus(Duration.ofHours(1)))
          .build();

  private final TestSourceTopic<String, Order> orders =
      this.driver.sourceTopic(OrderViews.TOPIC, String.class, Order.class);

  @AfterEach
  void closeDriver() {
    this.driver.close();
  }

  @Test
  void countsOrdersPerCustomer() {
    place("alice", "12.50", MINUTE_0);
    place("bob", "0.99", MINUTE_0);
    place("alice", "7.25", MINUTE_1);
    TestView<String, Long> view = this.driver.view(ORDERS_PER_CUSTOMER, String.class, Long.class);
    assertThat(view.get("alice")).isEqualTo(2L);
    assertThat(view.get("bob")).isEqualTo(1L);
    assertThat(view.get("carol")).isNull();
  }

  @Test
  void sumsRevenuePerCustomerWithItsLargestOrder() {
    place("alice", "12.50", MINUTE_0);
    place("alice", "30.10", MINUTE_0);
    place("alice", "7.25", MINUTE_1);
    TestView<String, Revenue> view =
        this.driver.view(REVENUE_PER_CUSTOMER, String.class, Revenue.class);
    assertThatRevenue(view.get("alice")).isEqualTo(revenue(3, "49.85", "30.10"));
  }

  @Test
  void countsOrdersPerCustomerPerMinuteOfTheOrdersTime() {
    place("alice", "12.50", MINUTE_0.plusSeconds(5));
    place("alice", "7.25", MINUTE_0.plusSeconds(40));
    place("alice", "30.10", MINUTE_1.plusSeconds(10));
    assertThat(
            this.driver
                .view(ORDERS_PER_CUSTOMER_PER_MINUTE, String.class, Long.class)
                .windows("alice"))
        .containsExactly(
            new WindowedValue<>(MINUTE_0, MINUTE_1, 2L),
            new WindowedValue<>(MINUTE_1, MINUTE_1.plus(Duration.ofMinutes(1)), 1L));
  }

  @Test
  void countsAnOrderUpToTenSecondsLateAndSendsALaterOneToTheDeadLetters() {
    place("alice", "1.00", MINUTE_1.plusSeconds(5));
    place("bob", "2.00", MINUTE_0.plusSeconds(59));
    place("alice", "3.00", MINUTE_1.plusSeconds(15));
    place("bob", "4.00", MINUTE_0.plusSeconds(58));
    TestView<String, Long> perMinute =
        this.driver.view(ORDERS_PER_CUSTOMER_PER_MINUTE, String.class, Long.class);
    assertThat(perMinute.windows("bob"))
        .containsExactly(new WindowedValue<>(MINUTE_0, MINUTE_1, 1L));
    assertThat(perMinute.deadLetters())
        .extracting(DeadLetterRecord::reason)
        .containsExactly(DeadLetterReason.LATE);
    assertThat(this.driver.view(ORDERS_PER_CUSTOMER, String.class, Long.class).get("bob"))
        .isEqualTo(2L);
  }

  @Test
  void sendsAnOrderWithoutTimeToTheDeadLettersOfThePerMinuteViewOnly() {
    this.orders.pipe("order-1", new Order("order-1", "alice", new BigDecimal("5.00"), null));
    assertThat(this.driver.deadLetters())
        .singleElement()
        .satisfies(
            letter -> {
              assertThat(letter.view()).isEqualTo(ORDERS_PER_CUSTOMER_PER_MINUTE);
              assertThat(letter.reason()).isEqualTo(DeadLetterReason.EVENT_TIME);
              assertThat(letter.topic()).isEqualTo("matview-sample-dlq");
            });
    assertThat(this.driver.view(ORDERS_PER_CUSTOMER, String.class, Long.class).get("alice"))
        .isEqualTo(1L);
  }

  private void place(String customer, String amount, Instant ts) {
    String orderId = customer + "-" + ts.toEpochMilli() + "-" + amount;
    this.orders.pipe(orderId, new Order(orderId, customer, new BigDecimal(amount), ts));
  }
}
