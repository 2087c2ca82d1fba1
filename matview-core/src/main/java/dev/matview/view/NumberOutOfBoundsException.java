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
            + " significant digits (matview.records.max-decimal-precision), at most "
            + bounds.maxScale()
            + " of them after the point (matview.records.max-decimal-scale) and so "
            + (bounds.maxPrecision() - bounds.maxScale())
            + " before it");
  }
}
