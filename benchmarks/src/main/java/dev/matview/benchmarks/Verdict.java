package dev.matview.benchmarks;

/** Whether a figure met its goal. */
public enum Verdict {
  /** The figure meets the goal. */
  MET("met"),
  /** The figure misses the goal. */
  MISSED("missed"),
  /** The figure has no goal of its own: it is reported for what it tells. */
  INFO("-"),
  /** The benchmark was not run, so there is no figure. */
  NONE("not measured"),
  /** The benchmark failed, so there is no figure. */
  FAILED("failed");

  private final String label;

  Verdict(String label) {
    this.label = label;
  }

  /** How the report writes it. */
  public String label() {
    return this.label;
  }
}
