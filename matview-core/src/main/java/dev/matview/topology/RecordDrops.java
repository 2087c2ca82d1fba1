package dev.matview.topology;

/**
 * Told of every record that a view leaves out without a dead letter, such as a tombstone, for
 * example to count them.
 */
@FunctionalInterface
public interface RecordDrops {

  /** Told nothing. */
  RecordDrops NONE = (view, reason) -> {};

  /** Tombstones (records with a null value) on a source topic. */
  String TOMBSTONE = "tombstone";

  /**
   * Records that arrived after some or all of their windows, or the session they would join, had
   * closed, left out of those windows without a dead letter (when late dead letters are off, or for
   * a hopping window that still had open windows for the record).
   */
  String LATE = "late";

  /** {@code view} left out a record for {@code reason}. */
  void dropped(String view, String reason);
}
