package dev.matview.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.deadletter.DeadLetterReason;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Windowed and session views on the driver, event time, grace and the wall clock. */
class ViewTestDriverWindowTests extends DriverTestSupport {

  private static final Duration MINUTE = Duration.ofMinutes(1);

  @Test
  void countsPerTumblingWindowOfTheEventTimeInTheValue() {
    TestSourceTopic<String, Order> orders = start(perMinute(Duration.ZERO), T0.plusSeconds(600));
    orders.pipe("o-1", Order.of("alice", 1, "1.00", T0.plusSeconds(5)), T0.plusSeconds(500));
    orders.pipe("o-2", Order.of("alice", 1, "1.00", T0.plusSeconds(50)), T0);
    orders.pipe("o-3", Order.of("alice", 1, "1.00", T0.plusSeconds(70)), T0);
    assertThat(this.driver.view("per-minute", String.class, Long.class).windows("alice"))
        .containsExactly(
            new WindowedValue<>(T0, T0.plus(MINUTE), 2L),
            new WindowedValue<>(T0.plus(MINUTE), T0.plus(MINUTE).plus(MINUTE), 1L));
  }

  @Test
  void readsTheWindowsThatStartInARange() {
    TestSourceTopic<String, Order> orders = start(perMinute(Duration.ZERO), T0.plusSeconds(600));
    for (int minute = 0; minute < 4; minute++) {
      orders.pipe("o", Order.of("alice", 1, "1.00", T0.plus(MINUTE.multipliedBy(minute))));
    }
    TestView<String, Long> view = this.driver.view("per-minute", String.class, Long.class);
    assertThat(view.windows("alice", T0.plusSeconds(1), T0.plus(MINUTE.multipliedBy(2))))
        .extracting(WindowedValue::start)
        .containsExactly(T0.plus(MINUTE), T0.plus(MINUTE.multipliedBy(2)));
    assertThat(view.windows("bob")).isEmpty();
  }

  @Test
  void countsPerHoppingWindowInEveryWindowARecordBelongsTo() {
    TestSourceTopic<String, Order> orders =
        start(
            ViewTestDriver.builder()
                .view(
                    "per-ten-minutes",
                    byCustomerAtOrderTime()
                        .windowedBy(
                            ViewWindow.hopping(Duration.ofMinutes(10), Duration.ofMinutes(5)))
                        .count())
                .wallClockTime(T0.plus(Duration.ofHours(1))));
    orders.pipe("o-1", Order.of("alice", 1, "1.00", T0.plus(Duration.ofMinutes(7))));
    orders.pipe("o-2", Order.of("alice", 1, "1.00", T0.plus(Duration.ofMinutes(12))));
    Instant five = T0.plus(Duration.ofMinutes(5));
    Instant ten = T0.plus(Duration.ofMinutes(10));
    assertThat(this.driver.view("per-ten-minutes", String.class, Long.class).windows("alice"))
        .containsExactly(
            new WindowedValue<>(T0, ten, 1L),
            new WindowedValue<>(five, five.plus(Duration.ofMinutes(10)), 2L),
            new WindowedValue<>(ten, ten.plus(Duration.ofMinutes(10)), 1L));
  }

  @Test
  void mergesTheSessionsThatARecordJoins() {
    TestSourceTopic<String, Order> orders =
        start(
            ViewTestDriver.builder()
                .view(
                    "sessions",
                    byCustomerAtOrderTime()
                        .windowedBy(ViewWindow.session(Duration.ofMinutes(5)))
                        .count())
                .wallClockTime(T0.plus(Duration.ofHours(1))));
    Instant eight = T0.plus(Duration.ofMinutes(8));
    orders.pipe("o-1", Order.of("alice", 1, "1.00", T0));
    orders.pipe("o-2", Order.of("alice", 1, "1.00", eight));
    TestView<String, Long> view = this.driver.view("sessions", String.class, Long.class);
    assertThat(view.windows("alice"))
        .containsExactly(new WindowedValue<>(T0, T0, 1L), new WindowedValue<>(eight, eight, 1L));
    orders.pipe("o-3", Order.of("alice", 1, "1.00", T0.plus(Duration.ofMinutes(4))));
    assertThat(view.windows("alice")).containsExactly(new WindowedValue<>(T0, eight, 3L));
    assertThat(view.windows("alice", T0.plusSeconds(1), eight)).isEmpty();
  }

  @Test
  void countsARecordWithinTheGraceAndSendsOneAfterItToTheDeadLetters() {
    TestSourceTopic<String, Order> orders =
        start(perMinute(Duration.ofSeconds(10)), T0.plusSeconds(600));
    orders.pipe("o-1", Order.of("alice", 1, "1.00", T0.plusSeconds(65)));
    orders.pipe("o-2", Order.of("alice", 1, "1.00", T0.plusSeconds(30)));
    orders.pipe("o-3", Order.of("bob", 1, "1.00", T0.plusSeconds(75)));
    orders.pipe("o-4", Order.of("alice", 1, "1.00", T0.plusSeconds(40)));
    TestView<String, Long> view = this.driver.view("per-minute", String.class, Long.class);
    assertThat(view.windows("alice", T0, T0))
        .containsExactly(new WindowedValue<>(T0, T0.plus(MINUTE), 1L));
    assertThat(view.deadLetters())
        .singleElement()
        .satisfies(
            letter -> {
              assertThat(letter.reason()).isEqualTo(DeadLetterReason.LATE);
              assertThat(letter.sourceOffset()).isEqualTo(3);
            });
  }

  @Test
  void onlyLeavesOutALateRecordWhenLateRecordsAreNotDeadLetters() {
    TestSourceTopic<String, Order> orders =
        start(
            ViewTestDriver.builder()
                .view("per-minute", perMinute(Duration.ZERO))
                .wallClockTime(T0.plusSeconds(600))
                .lateRecordsAsDeadLetters(false));
    orders.pipe("o-1", Order.of("alice", 1, "1.00", T0.plusSeconds(65)));
    orders.pipe("o-2", Order.of("alice", 1, "1.00", T0.plusSeconds(30)));
    assertThat(this.driver.view("per-minute", String.class, Long.class).windows("alice"))
        .extracting(WindowedValue::start)
        .containsExactly(T0.plus(MINUTE));
    assertThat(this.driver.deadLetters()).isEmpty();
  }

  @Test
  void stampsRecordsPipedWithoutTimestampWithTheWallClockTime() {
    TestSourceTopic<String, Order> orders =
        start(
            ViewTestDriver.builder()
                .view(
                    "per-minute-by-timestamp",
                    byCustomer().windowedBy(ViewWindow.tumbling(MINUTE)).count())
                .wallClockTime(T0.plusSeconds(30)));
    orders.pipe("o-1", Order.of("alice", 1, "1.00", T0));
    assertThat(this.driver.wallClockTime()).isEqualTo(T0.plusSeconds(30));
    this.driver.advanceWallClockTime(MINUTE);
    assertThat(this.driver.wallClockTime()).isEqualTo(T0.plusSeconds(90));
    orders.pipe("o-2", Order.of("alice", 1, "1.00", T0));
    assertThat(
            this.driver.view("per-minute-by-timestamp", String.class, Long.class).windows("alice"))
        .extracting(WindowedValue::start)
        .containsExactly(T0, T0.plus(MINUTE));
  }

  @Test
  void refusesEventTimesFurtherAheadOfTheWallClockThanAllowed() {
    TestSourceTopic<String, Order> orders =
        start(
            ViewTestDriver.builder()
                .view("per-minute", perMinute(Duration.ZERO))
                .wallClockTime(T0)
                .maxEventTimeAhead(Duration.ofMinutes(5)));
    Instant sixMinutesAhead = T0.plus(Duration.ofMinutes(6));
    orders.pipe("o-1", Order.of("alice", 1, "1.00", T0.plus(Duration.ofMinutes(4))));
    orders.pipe("o-2", Order.of("alice", 1, "1.00", sixMinutesAhead));
    assertThat(this.driver.deadLetters())
        .extracting(DeadLetterRecord::reason)
        .containsExactly(DeadLetterReason.EVENT_TIME);
    this.driver.advanceWallClockTime(Duration.ofMinutes(2));
    orders.pipe("o-3", Order.of("alice", 1, "1.00", sixMinutesAhead));
    assertThat(this.driver.view("per-minute", String.class, Long.class).windows("alice"))
        .extracting(WindowedValue::start)
        .containsExactly(T0.plus(Duration.ofMinutes(4)), sixMinutesAhead);
    assertThat(this.driver.deadLetters()).hasSize(1);
  }

  private TestSourceTopic<String, Order> start(
      ViewDefinition<String, Order, Long> view, Instant wallClockTime) {
    return start(ViewTestDriver.builder().view("per-minute", view).wallClockTime(wallClockTime));
  }
}
