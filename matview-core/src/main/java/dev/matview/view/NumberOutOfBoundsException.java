package dev.matview.view;

/** Thrown when a decimal lies outside a view's {@link DecimalBounds}. */
public final class NumberOutOfBoundsException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  /** {@code what} (a description of the number, not the number) lies outside {@code bounds}. */
  public NumberOutOfBoundsException(String what, DecimalBounds bounds) {
    super(
        "Refused "
            + what
            + ": decimals may have at most "
            + bounds.maxPrecision()
            + " significant digits, at most "
            + bounds.maxScale()
            + " of them after the point and "
            + (bounds.maxPrecision() - bounds.maxScale())
            + " before it (matview.records.max-decimal-precision and max-decimal-scale)");
  }
}
