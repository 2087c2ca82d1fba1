package dev.matview.client;

import java.util.Objects;

/**
 * A record of a view's input topic, named by where it was written, that a call waits for: the
 * answer includes it (read your own writes).
 *
 * @param topic the input topic
 * @param partition the record's partition
 * @param offset the record's offset
 */
public record InputRecord(String topic, int partition, long offset) {

  /** Checks that the record is named completely. */
  public InputRecord {
    Objects.requireNonNull(topic, "topic must not be null");
    if (topic.isBlank() || topic.indexOf(':') >= 0) {
      throw new IllegalArgumentException("topic must be a topic's name, was '" + topic + "'");
    }
    if (partition < 0) {
      throw new IllegalArgumentException("partition must not be negative, was " + partition);
    }
    if (offset < 0) {
      throw new IllegalArgumentException("offset must not be negative, was " + offset);
    }
  }

  /** The record as the {@code after} parameter writes it: {@code topic:partition:offset}. */
  String parameter() {
    return this.topic + ":" + this.partition + ":" + this.offset;
  }
}
