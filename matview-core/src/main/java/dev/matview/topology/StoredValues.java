package dev.matview.topology;

import java.nio.ByteBuffer;
import org.jspecify.annotations.Nullable;

/** The values of Kafka Streams' timestamped stores, as the stores keep them. */
final class StoredValues {

  private StoredValues() {}

  /**
   * {@code aggregate} as a timestamped store keeps it: Kafka Streams' 8-byte timestamp, then the
   * aggregate; {@code null} for a removal.
   */
  static byte @Nullable [] timestamped(long timestamp, byte @Nullable [] aggregate) {
    if (aggregate == null) {
      return null;
    }
    return ByteBuffer.allocate(Long.BYTES + aggregate.length)
        .putLong(timestamp)
        .put(aggregate)
        .array();
  }
}
