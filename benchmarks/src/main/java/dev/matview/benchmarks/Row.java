package dev.matview.benchmarks;

/**
 * One line of the report: a figure of Matview beside its baseline in the same run, their ratio, the
 * issue's goal and whether it is met.
 *
 * @param number the row of issue 8's table
 * @param figure what was measured
 * @param measured Matview's figure, with its unit
 * @param baseline the baseline's figure, with its unit
 * @param ratio Matview's figure over the baseline's, or NaN where none applies
 * @param goal the goal for this figure, or "-"
 * @param verdict whether the goal is met
 * @param bound what bounds the figure, in a few words
 */
public record Row(
    int number,
    String figure,
    String measured,
    String baseline,
    double ratio,
    String goal,
    Verdict verdict,
    String bound) {

  /** A figure that should reach at least {@code least} of the baseline's (more is better). */
  public static Row atLeast(
      int number, String figure, double value, double baseline, String unit, double least) {
    double ratio = Stats.ratio(value, baseline);
    return new Row(
        number,
        figure,
        Stats.format(value, unit),
        Stats.format(baseline, unit),
        ratio,
        ">= " + Stats.ratio(least) + " of baseline",
        ratio >= least ? Verdict.MET : Verdict.MISSED,
        "");
  }

  /** A cost that should be at most {@code most} times the baseline's (less is better). */
  public static Row atMost(
      int number, String figure, double value, double baseline, String unit, double most) {
    double ratio = Stats.ratio(value, baseline);
    return new Row(
        number,
        figure,
        Stats.format(value, unit),
        Stats.format(baseline, unit),
        ratio,
        "<= " + Stats.ratio(most) + "x baseline",
        ratio <= most ? Verdict.MET : Verdict.MISSED,
        "");
  }

  /** A cost that may exceed the baseline's by at most {@code added} (in the same unit). */
  public static Row addedAtMost(
      int number, String figure, double value, double baseline, String unit, double added) {
    return new Row(
        number,
        figure,
        Stats.format(value, unit),
        Stats.format(baseline, unit),
        Stats.ratio(value, baseline),
        "<= baseline + " + Stats.format(added, unit),
        value - baseline <= added ? Verdict.MET : Verdict.MISSED,
        "");
  }

  /** A figure of its own that should be at most {@code most}, beside another run's figure. */
  public static Row within(
      int number, String figure, double value, double other, String unit, double most) {
    return new Row(
        number,
        figure,
        Stats.format(value, unit),
        Stats.format(other, unit),
        Stats.ratio(value, other),
        "<= " + Stats.format(most, unit),
        value <= most ? Verdict.MET : Verdict.MISSED,
        "");
  }

  /** A figure reported beside its baseline without a goal of its own. */
  public static Row info(int number, String figure, double value, double baseline, String unit) {
    return new Row(
        number,
        figure,
        Stats.format(value, unit),
        Stats.format(baseline, unit),
        Stats.ratio(value, baseline),
        "-",
        Verdict.INFO,
        "");
  }

  /** A row without figures: the benchmark was not run, for {@code reason}. */
  public static Row none(int number, String figure, String reason) {
    return new Row(number, figure, "-", "-", Double.NaN, "-", Verdict.NONE, reason);
  }

  /** A row without figures: the benchmark failed with {@code failure}. */
  public static Row failed(int number, String figure, String failure) {
    return new Row(number, figure, "-", "-", Double.NaN, "-", Verdict.FAILED, failure);
  }

  /** This row with {@code bound} as what bounds it. */
  public Row boundedBy(String bound) {
    return new Row(
        this.number,
        this.figure,
        this.measured,
        this.baseline,
        this.ratio,
        this.goal,
        this.verdict,
        bound);
  }
}
