package dev.matview.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.math.BigDecimal;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Tests for {@link DecimalBounds} and the decimal sum that uses them. */
class DecimalBoundsTests {

  private final DecimalBounds bounds = DecimalBounds.STANDARD;

  @Test
  void acceptsTwentyDigitsBeforeThePointAndEighteenAfter() {
    BigDecimal largest = new BigDecimal("99999999999999999999.999999999999999999");
    assertThat(this.bounds.check(largest)).isEqualTo(largest);
    assertThat(this.bounds.check(new BigDecimal("12.50"))).isEqualTo(new BigDecimal("12.50"));
  }

  @Test
  void refusesAHugeExponentAtOnceWithoutExpandingIt() {
    long started = System.nanoTime();
    assertThatExceptionOfType(NumberOutOfBoundsException.class)
        .isThrownBy(() -> this.bounds.check(new BigDecimal("1e100000000")))
        .withMessageContaining("scale -100000000")
        .withMessageContaining("matview.records.max-decimal-precision");
    assertThatExceptionOfType(NumberOutOfBoundsException.class)
        .isThrownBy(() -> this.bounds.check(new BigDecimal("1e2000")));
    assertThatExceptionOfType(NumberOutOfBoundsException.class)
        .isThrownBy(() -> this.bounds.check(new BigDecimal("1e-19")));
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
  }

  @Test
  void acceptsTrailingZerosBeyondTheScaleAndZeroWithAnyExponent() {
    assertThat(this.bounds.check(new BigDecimal("1.5000000000000000000000000")))
        .isEqualByComparingTo("1.5");
    assertThat(this.bounds.check(new BigDecimal("0e100000000"))).isEqualTo(BigDecimal.ZERO);
  }

  @Test
  void refusesBoundsThatJacksonCouldNotReadBack() {
    assertThatIllegalArgumentException().isThrownBy(() -> new DecimalBounds(1001, 2));
    assertThatIllegalArgumentException().isThrownBy(() -> new DecimalBounds(10, 11));
  }

  @Test
  void sumDecimalRefusesAnAddendOrASumOutsideTheBoundsAndKeepsTheSum() {
    MergeableAggregation<String, BigDecimal, BigDecimal> sum =
        Aggregations.sumDecimal(value -> value, new DecimalBounds(4, 2));
    BigDecimal total = sum.add("k", new BigDecimal("60.25"), sum.initial());
    assertThatExceptionOfType(NumberOutOfBoundsException.class)
        .isThrownBy(() -> sum.add("k", new BigDecimal("1e100000000"), total));
    assertThatExceptionOfType(NumberOutOfBoundsException.class)
        .isThrownBy(() -> sum.add("k", new BigDecimal("50"), total));
    assertThat(sum.add("k", new BigDecimal("39.74"), total)).isEqualByComparingTo("99.99");
  }
}
