package dev.matview.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.deadletter.DeadLetterHeaders;
import dev.matview.deadletter.DeadLetterReason;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The dead letters of records the views cannot use, as the driver shows them. */
class ViewTestDriverDeadLetterTests extends DriverTestSupport {

  @Test
  void writesAValueThatCannotBeReadToTheDeadLetterTopicWithMatviewsHeaders() {
    TestSourceTopic<String, Order> orders =
        start(ViewTestDriver.builder().view("per-customer", perCustomer()));
    orders.pipe("o-1", Order.of("alice", 1, "1.00", T0), T0);
    orders.pipeRaw("o-2", bytes("{not json"), T0);
    orders.pipe("o-3", Order.of("alice", 1, "1.00", T0), T0);
    assertThat(this.driver.view("per-customer", String.class, Long.class).get("alice"))
        .isEqualTo(2L);
    assertThat(this.driver.deadLetters())
        .singleElement()
        .satisfies(
            letter -> {
              assertThat(letter.topic()).isEqualTo("matview-test-dlq");
              assertThat(letter.key()).isEqualTo(bytes("o-2"));
              assertThat(letter.value()).isEqualTo(bytes("{not json"));
              assertThat(letter.valueAsString()).isEqualTo("{not json");
              assertThat(letter.view()).isEqualTo("per-customer");
              assertThat(letter.reason()).isEqualTo(DeadLetterReason.DESERIALIZATION);
              assertThat(letter.header(DeadLetterHeaders.REASON)).isEqualTo("deserialization");
              assertThat(letter.header("no-such-header")).isNull();
              assertThat(letter.headers().lastHeader(DeadLetterHeaders.PARTITION)).isNotNull();
              assertThat(letter.sourceTopic()).isEqualTo("orders");
              assertThat(letter.sourceOffset()).isEqualTo(1);
              assertThat(letter.processor()).isEqualTo("per-customer-decode");
              assertThat(letter.exceptionMessage()).contains("Cannot read JSON as");
              assertThat(letter.toString())
                  .contains("view=per-customer", "reason=deserialization", "orders@1");
            });
  }

  @Test
  void namesTheDeadLetterTopicAndTheRepartitionTopicAfterTheApplicationId() {
    TestSourceTopic<String, Order> orders =
        start(
            ViewTestDriver.builder()
                .applicationId("shop")
                .view("picky", byCustomer().aggregate(Long.class, new Picky())));
    orders.pipe("o-1", Order.of("alice", 13, "1.00", T0), T0);
    orders.pipe("o-2", Order.of("alice", 2, "1.00", T0), T0);
    assertThat(this.driver.view("picky", String.class, Long.class).get("alice")).isEqualTo(1L);
    assertThat(this.driver.deadLetters())
        .singleElement()
        .satisfies(
            letter -> {
              assertThat(letter.topic()).isEqualTo("shop-dlq");
              assertThat(letter.reason()).isEqualTo(DeadLetterReason.AGGREGATION);
              assertThat(letter.sourceTopic()).isEqualTo("shop-picky-repartition");
              assertThat(letter.exceptionMessage()).isEqualTo("13 is unlucky");
            });
  }

  @Test
  void leavesOutATombstoneWithoutADeadLetter() {
    TestSourceTopic<String, Order> orders =
        start(ViewTestDriver.builder().view("per-customer", perCustomer()));
    orders.pipe("o-1", Order.of("alice", 1, "1.00", T0), T0);
    orders.pipeRaw("o-1", null, T0);
    assertThat(this.driver.view("per-customer", String.class, Long.class).get("alice"))
        .isEqualTo(1L);
    assertThat(this.driver.deadLetters()).isEmpty();
  }

  @Test
  void tellsEachViewItsOwnDeadLetters() {
    TestSourceTopic<String, Order> orders =
        start(
            ViewTestDriver.builder()
                .view("per-order", Views.from("orders", Order.class).count())
                .view(
                    "per-minute",
                    Views.from("orders", Order.class)
                        .eventTime(Order::at)
                        .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)))
                        .count()));
    orders.pipe(null, Order.of("alice", 1, "1.00", T0), T0);
    orders.pipe("o-2", new Order("o-2", "alice", 1, null, null), T0);
    assertThat(this.driver.view("per-order", String.class, Long.class).deadLetters())
        .extracting(DeadLetterRecord::reason)
        .containsExactly(DeadLetterReason.NULL_KEY);
    assertThat(this.driver.view("per-minute", String.class, Long.class).deadLetters())
        .extracting(DeadLetterRecord::reason)
        .containsExactly(DeadLetterReason.NULL_KEY, DeadLetterReason.EVENT_TIME);
    assertThat(this.driver.view("per-order", String.class, Long.class).get("o-2")).isEqualTo(1L);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
