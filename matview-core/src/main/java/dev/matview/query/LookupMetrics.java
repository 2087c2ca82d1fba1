package dev.matview.query;

/** Records how long each lookup took, by view, route and outcome. */
@FunctionalInterface
public interface LookupMetrics {

  /** Records nothing. */
  LookupMetrics NONE = (view, route, outcome, nanos) -> {};

  /**
   * Records one lookup.
   *
   * @param view the view's name, or {@code unknown}
   * @param route {@code local}, {@code forwarded}, {@code standby} or {@code none}
   * @param outcome {@code found}, {@code absent}, {@code invalid}, {@code unavailable}, {@code
   *     timeout} or {@code error}
   * @param nanos how long the lookup took
   */
  void record(String view, String route, String outcome, long nanos);
}
