package dev.matview.position;

/**
 * A record of a view's source topic, by topic, partition and offset, as a producer's {@code
 * RecordMetadata} names it: what a lookup that must read its own write waits for.
 */
public record InputRecord(String topic, int partition, long offset) {

  /**
   * The record that {@code text}, written {@code <topic>:<partition>:<offset>}, names; throws
   * {@link IllegalArgumentException} when it is not written so, saying how it should be.
   */
  public static InputRecord parse(String text) {
    int lastColon = text.lastIndexOf(':');
    int middleColon = (lastColon > 0) ? text.lastIndexOf(':', lastColon - 1) : -1;
    if (middleColon <= 0) {
      throw new IllegalArgumentException(
          "'" + text + "' is not written <topic>:<partition>:<offset>, such as orders:3:1042");
    }
    String topic = text.substring(0, middleColon);
    try {
      int partition = Integer.parseInt(text.substring(middleColon + 1, lastColon));
      long offset = Long.parseLong(text.substring(lastColon + 1));
      if (partition >= 0 && offset >= 0) {
        return new InputRecord(topic, partition, offset);
      }
    } catch (NumberFormatException ex) {
      // told below
    }
    throw new IllegalArgumentException(
        "'"
            + text
            + "' does not name a partition and an offset of 0 or more after the topic, as in"
            + " orders:3:1042");
  }

  @Override
  public String toString() {
    return this.topic + ":" + this.partition + ":" + this.offset;
  }
}
