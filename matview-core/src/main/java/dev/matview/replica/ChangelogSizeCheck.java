package dev.matview.replica;

/**
 * Refuses an update of a view's store whose changelog record would be too large, before the store
 * keeps it. The stores of {@link StoreHandles} call it on the stream thread with each update's key
 * and value as they arrive together, counted as they reach the changelog topic: the key as the
 * view's serde wrote it, and the value without the 8-byte timestamp that timestamped stores put
 * before it (Kafka Streams sends that timestamp as the record's own).
 */
@FunctionalInterface
public interface ChangelogSizeCheck {

  /**
   * Throws when a changelog record with a key of {@code keyBytes} and a value of {@code valueBytes}
   * would be too large.
   */
  void check(int keyBytes, int valueBytes);
}
