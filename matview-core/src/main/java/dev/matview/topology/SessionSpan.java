package dev.matview.topology;

import org.apache.kafka.streams.kstream.Window;

/** A session's bounds, both inclusive, as Kafka Streams' session stores key them. */
final class SessionSpan extends Window {

  SessionSpan(long start, long end) {
    super(start, end);
  }

  @Override
  public boolean overlap(Window other) {
    return start() <= other.end() && other.start() <= end();
  }
}
