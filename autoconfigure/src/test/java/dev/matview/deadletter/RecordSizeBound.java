package dev.matview.deadletter;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

/**
 * The most bytes a record takes alone in a record batch of Kafka's message format v2, as the
 * protocol guide lays it out, with every variable-length field at its longest: what the producer's
 * size limit has to hold, without Kafka's internal record classes (which moved in Kafka 4.4).
 */
final class RecordSizeBound {

  /** A v2 record batch's header, in bytes. */
  private static final int BATCH_HEADER = 61;

  /** A varint's longest encoding, in bytes. */
  private static final int VARINT = 5;

  /** A varlong's longest encoding, in bytes. */
  private static final int VARLONG = 10;

  private RecordSizeBound() {}

  /** The upper bound of {@code record}'s size in a batch of its own. */
  static int of(ProducerRecord<byte[], byte[]> record) {
    int size = BATCH_HEADER;
    // length, attributes, timestamp delta, offset delta, key length, value length, header count
    size += VARINT + 1 + VARLONG + VARINT + VARINT + VARINT + VARINT;
    size += length(record.key()) + length(record.value());
    for (Header header : record.headers()) {
      size += VARINT + header.key().getBytes(StandardCharsets.UTF_8).length;
      size += VARINT + length(header.value());
    }
    return size;
  }

  private static int length(byte[] bytes) {
    return (bytes != null) ? bytes.length : 0;
  }
}
