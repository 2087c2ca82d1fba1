package dev.matview.query;

/** Counts the items that streamed scans send to their clients, by view. */
@FunctionalInterface
public interface ScanMetrics {

  /** Counts nothing. */
  ScanMetrics NONE = (view, items) -> {};

  /** Counts {@code items} more sent by a streamed scan of {@code view} to its client. */
  void streamed(String view, int items);
}
