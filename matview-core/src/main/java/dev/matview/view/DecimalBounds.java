package dev.matview.view;

import java.math.BigDecimal;

/**
 * The decimals a view accepts: at most {@code maxPrecision} significant digits, of which at most
 * {@code maxScale} after the decimal point. Checking a number against them reads only its precision
 * and scale, so even {@code 1e100000000} is refused at once, before any arithmetic could take
 * minutes to expand it.
 *
 * @param maxPrecision most significant digits, 1 to 1000 (Jackson's longest number)
 * @param maxScale most digits after the decimal point, 0 to {@code maxPrecision}
 */
public record DecimalBounds(int maxPrecision, int maxScale) {

  /**
   * 38 digits, 18 after the point: SQL's widest common DECIMAL(38, 18), which leaves 20 digits
   * before the point (any amount of money) and 18 after it (the smallest units of crypto
   * currencies).
   */
  public static final DecimalBounds STANDARD = new DecimalBounds(38, 18);

  /** Longest number Jackson reads by default, in characters. */
  private static final int JACKSON_MAX_NUMBER_LENGTH = 1000;

  /** Checks the bounds themselves. */
  public DecimalBounds {
    if (maxPrecision < 1 || maxPrecision > JACKSON_MAX_NUMBER_LENGTH) {
      throw new IllegalArgumentException(
          "maxPrecision must be between 1 and 1000, not " + maxPrecision);
    }
    if (maxScale < 0 || maxScale > maxPrecision) {
      throw new IllegalArgumentException(
          "maxScale must be between 0 and maxPrecision (" + maxPrecision + "), not " + maxScale);
    }
  }

  /**
   * {@code value} when it lies within the bounds (zero and trailing zeros after the point are
   * normalized away first); throws {@link NumberOutOfBoundsException} when it does not.
   */
  public BigDecimal check(BigDecimal value) {
    if (value.signum() == 0) {
      return (value.scale() >= 0 && value.scale() <= this.maxScale) ? value : BigDecimal.ZERO;
    }
    BigDecimal checked = value;
    if (checked.scale() > this.maxScale && checked.precision() <= 2 * JACKSON_MAX_NUMBER_LENGTH) {
      checked = checked.stripTrailingZeros();
    }
    long integerDigits = (long) checked.precision() - checked.scale();
    if (checked.scale() > this.maxScale || integerDigits > this.maxPrecision - this.maxScale) {
      throw new NumberOutOfBoundsException(describe(checked), this);
    }
    return checked;
  }

  private static String describe(BigDecimal value) {
    return "a number with " + value.precision() + " significant digits and scale " + value.scale();
  }
}
