package dev.matview.deadletter;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.jspecify.annotations.Nullable;

/**
 * Cuts a dead letter down to a size limit: first the record's own headers (Matview's, named {@code
 * matview.*}, are kept), then its value, then its key, and says what was cut in the header {@link
 * DeadLetterHeaders#TRUNCATED}.
 */
final class DeadLetterSizer {

  /**
   * Bytes kept free for what Kafka adds to a record: the batch header (61 bytes), the record's
   * length fields, timestamp and offset deltas, and the length fields of each header.
   */
  static final int OVERHEAD = 1024;

  /** Bytes a header's length fields take at most, besides its name and value. */
  private static final int HEADER_OVERHEAD = 10;

  /** Most characters of an exception message written to a header. */
  static final int MAX_MESSAGE_CHARS = 4096;

  private final int maxBytes;

  /** A sizer to {@code maxBytes} per record, at least twice {@link #OVERHEAD}. */
  DeadLetterSizer(int maxBytes) {
    if (maxBytes < 2 * OVERHEAD) {
      throw new IllegalArgumentException(
          "A dead letter needs at least " + (2 * OVERHEAD) + " bytes, not " + maxBytes);
    }
    this.maxBytes = maxBytes;
  }

  /** The largest record this sizer lets through, in bytes. */
  int maxBytes() {
    return this.maxBytes;
  }

  /** {@code record} as it is when it fits, else with its headers, value and key cut to fit. */
  ProducerRecord<byte[], byte[]> fit(ProducerRecord<byte[], byte[]> record) {
    Headers headers = record.headers();
    byte @Nullable [] key = record.key();
    byte @Nullable [] value = record.value();
    int budget = this.maxBytes - OVERHEAD;
    if (size(headers) + length(key) + length(value) <= budget) {
      return record;
    }
    List<String> cut = new ArrayList<>();
    int foreignBytes = 0;
    int foreignRawBytes = 0;
    for (Header header : headers) {
      if (!isOwn(header)) {
        foreignBytes += size(header);
        foreignRawBytes += size(header) - HEADER_OVERHEAD;
      }
    }
    boolean dropForeign = foreignBytes > budget / 4;
    if (dropForeign) {
      cut.add("headers=" + foreignRawBytes);
    }
    Headers kept = new RecordHeaders();
    for (Header header : headers) {
      if (!dropForeign || isOwn(header)) {
        kept.add(header);
      }
    }
    int room = Math.max(0, budget - size(kept) - 128);
    if (length(key) + length(value) > room) {
      int keyRoom = Math.max(0, Math.min(length(key), Math.max(room / 4, room - length(value))));
      int valueRoom = Math.max(0, room - keyRoom);
      if (length(value) > valueRoom && value != null) {
        cut.add("value=" + value.length);
        value = Arrays.copyOf(value, valueRoom);
      }
      if (length(key) > keyRoom && key != null) {
        cut.add(0, "key=" + key.length);
        key = Arrays.copyOf(key, keyRoom);
      }
    }
    kept.add(DeadLetterHeaders.TRUNCATED, String.join(",", cut).getBytes(StandardCharsets.UTF_8));
    return new ProducerRecord<>(
        record.topic(), record.partition(), record.timestamp(), key, value, kept);
  }

  /** {@code message}, cut to {@link #MAX_MESSAGE_CHARS} characters. */
  static String shorten(String message) {
    if (message.length() <= MAX_MESSAGE_CHARS) {
      return message;
    }
    return message.substring(0, MAX_MESSAGE_CHARS)
        + "... ("
        + (message.length() - MAX_MESSAGE_CHARS)
        + " more characters)";
  }

  private static boolean isOwn(Header header) {
    return header.key().startsWith("matview.");
  }

  private static int size(Headers headers) {
    int size = 0;
    for (Header header : headers) {
      size += size(header);
    }
    return size;
  }

  private static int size(Header header) {
    return header.key().getBytes(StandardCharsets.UTF_8).length
        + length(header.value())
        + HEADER_OVERHEAD;
  }

  private static int length(byte @Nullable [] bytes) {
    return (bytes != null) ? bytes.length : 0;
  }
}
