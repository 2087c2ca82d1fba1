package dev.matview.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.matview.view.DecimalBounds;
import dev.matview.view.NumberOutOfBoundsException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** Decimals read and written as JSON by the views' serdes stay within the bounds. */
class BoundedDecimalsTests {

  private final ViewSerdes serdes =
      new ViewSerdes(JsonMapper.builder().build(), DecimalBounds.STANDARD);

  private final Serde<Order> orders = this.serdes.forType(Order.class);

  @Test
  void refusesAHugeExponentAsTheValueIsReadInWellUnderASecond() {
    long started = System.nanoTime();
    assertThatExceptionOfType(SerializationException.class)
        .isThrownBy(() -> read("{\"customer\": \"c\", \"amount\": 1e100000000}"))
        .havingRootCause()
        .isInstanceOf(NumberOutOfBoundsException.class);
    assertThatExceptionOfType(SerializationException.class)
        .isThrownBy(() -> read("{\"customer\": \"c\", \"amount\": 1e2000}"))
        .havingRootCause()
        .isInstanceOf(NumberOutOfBoundsException.class);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
  }

  @Test
  void neverWritesAnAggregateItCouldNotReadBack() {
    Serde<Order> serde = this.orders;
    Order big = new Order("c", new BigDecimal("1e2000"));
    assertThatExceptionOfType(SerializationException.class)
        .isThrownBy(() -> serde.serializer().serialize("t", big))
        .havingRootCause()
        .isInstanceOf(NumberOutOfBoundsException.class);
    Order largest = new Order("c", new BigDecimal("99999999999999999999.999999999999999999"));
    byte[] written = serde.serializer().serialize("t", largest);
    assertThat(serde.deserializer().deserialize("t", written)).isEqualTo(largest);
  }

  @Test
  void leavesTheApplicationsOwnMapperUnbounded() {
    assertThat(
            this.serdes
                .mapper()
                .readValue("{\"customer\": \"c\", \"amount\": 1e2000}", Order.class)
                .amount())
        .isEqualByComparingTo("1e2000");
  }

  private Order read(String json) {
    return this.orders.deserializer().deserialize("t", json.getBytes(StandardCharsets.UTF_8));
  }

  record Order(String customer, BigDecimal amount) {}
}
