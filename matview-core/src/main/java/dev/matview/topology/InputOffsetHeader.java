package dev.matview.topology;

import java.nio.ByteBuffer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.ContextualFixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.jspecify.annotations.Nullable;

/**
 * The header with which a re-keyed view's record crosses its repartition topic naming where it came
 * from: the partition and offset of the source record, so that the store partition it reaches can
 * tell which source records it has applied.
 */
final class InputOffsetHeader {

  /** The header's key. */
  static final String KEY = "matview.input";

  private static final int BYTES = Integer.BYTES + Long.BYTES;

  private InputOffsetHeader() {}

  /** Sets the header on {@code headers}, replacing one set before. */
  static void set(Headers headers, int partition, long offset) {
    headers.remove(KEY);
    headers.add(KEY, ByteBuffer.allocate(BYTES).putInt(partition).putLong(offset).array());
  }

  /** The source partition the header names, or -1 when {@code headers} have none of its form. */
  static int partition(@Nullable Header header) {
    byte[] value = (header != null) ? header.value() : null;
    return (value != null && value.length == BYTES) ? ByteBuffer.wrap(value).getInt() : -1;
  }

  /** The source offset the header names; ask {@link #partition} first. */
  static long offset(Header header) {
    return ByteBuffer.wrap(header.value()).getLong(Integer.BYTES);
  }

  /**
   * Stamps a re-keyed view's record, on its way to the repartition topic, with the header, and
   * passes on the bytes its value was read from, which the repartition topic carries.
   */
  static final class Stamp<K, V> extends ContextualFixedKeyProcessor<K, SourceValue<V>, byte[]> {

    @Override
    public void process(FixedKeyRecord<K, SourceValue<V>> record) {
      FixedKeyProcessorContext<K, byte[]> context = context();
      RecordMetadata metadata = context.recordMetadata().orElse(null);
      if (metadata != null) {
        set(record.headers(), metadata.partition(), metadata.offset());
      }
      context.forward(record.withValue(record.value().bytes()));
    }
  }
}
