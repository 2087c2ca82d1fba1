package dev.matview.benchmarks;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The arithmetic of the report: medians, ratios and how figures are written. */
public final class Stats {

  private Stats() {}

  /** The median of {@code values}: the middle one, or the mean of the two middle ones. */
  public static double median(List<Double> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("The median of no values is undefined");
    }
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  /**
   * {@code value} over {@code baseline}; NaN when the baseline is zero or either is not a number.
   */
  public static double ratio(double value, double baseline) {
    if (baseline == 0 || Double.isNaN(value) || Double.isNaN(baseline)) {
      return Double.NaN;
    }
    return value / baseline;
  }

  /**
   * Whether the last two of {@code rates} differ by at most {@code tolerance} of the larger one:
   * rounds of load that no longer speed up as the JIT compiles more.
   */
  public static boolean settled(List<Double> rates, double tolerance) {
    if (rates.size() < 2) {
      return false;
    }
    double last = rates.get(rates.size() - 1);
    double before = rates.get(rates.size() - 2);
    return Math.abs(last - before) <= tolerance * Math.max(last, before);
  }

  /** {@code value} with three significant digits at most, and its unit after a space. */
  public static String format(double value, String unit) {
    if (Double.isNaN(value)) {
      return "-";
    }
    String number;
    double magnitude = Math.abs(value);
    if (magnitude >= 100 || magnitude == Math.rint(magnitude)) {
      number = String.format(Locale.ROOT, "%,.0f", value);
    } else if (magnitude >= 10) {
      number = String.format(Locale.ROOT, "%.1f", value);
    } else if (magnitude >= 1) {
      number = String.format(Locale.ROOT, "%.2f", value);
    } else if (magnitude >= 0.1) {
      number = String.format(Locale.ROOT, "%.2f", value);
    } else {
      number = String.format(Locale.ROOT, "%.3f", value);
    }
    return unit.isEmpty() ? number : number + " " + unit;
  }

  /** A ratio as the report writes it: two decimals, or "-" when there is none. */
  public static String ratio(double ratio) {
    return Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2f", ratio);
  }
}
