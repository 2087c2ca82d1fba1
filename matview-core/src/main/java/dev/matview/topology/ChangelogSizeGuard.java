package dev.matview.topology;

import dev.matview.replica.ChangelogSizeCheck;

/**
 * Refuses a view's aggregate that could not be written to the view's changelog topic, before the
 * store keeps it: an aggregate the producer would refuse would otherwise stay in RocksDB without
 * its changelog record, and a restore would change the answer.
 *
 * <p>The view's store hands each update's key and value to the guard together, as they reach the
 * changelog ({@link ChangelogSizeCheck}); the guard adds {@link #OVERHEAD} to their lengths. One
 * guard serves one view's store.
 */
final class ChangelogSizeGuard implements ChangelogSizeCheck {

  /**
   * Bytes kept free for what Kafka adds to a changelog record: the batch header, the record's
   * length fields, a window's start and sequence number or a session's bounds in the key, and the
   * headers Kafka Streams writes.
   */
  static final int OVERHEAD = 1024;

  private final String view;

  private final int maxBytes;

  /** A guard for the store of {@code view}, whose changelog records may have {@code maxBytes}. */
  ChangelogSizeGuard(String view, int maxBytes) {
    this.view = view;
    this.maxBytes = maxBytes;
  }

  @Override
  public void check(int keyBytes, int valueBytes) {
    long bytes = (long) keyBytes + valueBytes + OVERHEAD;
    if (bytes > this.maxBytes) {
      throw new AggregateTooLargeException(this.view, bytes, this.maxBytes);
    }
  }
}
