package dev.matview.query.local;

import dev.matview.position.Isolation;
import dev.matview.position.ReadBound;
import dev.matview.query.answer.InvalidQueryException;
import dev.matview.topology.ResolvedView;
import java.util.Map;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Decides whether a key lookup reads committed state only: under exactly-once, by default and when
 * asked with {@code isolation=committed}; never under at-least-once, where no transaction commits
 * and an {@code isolation=committed} lookup is refused, nor of a windowed view, whose windows Kafka
 * Streams' own store keeps without a committed snapshot.
 */
public final class ReadIsolation {

  /** Lookups of an application that processes at least once: all read state as applied. */
  public static final ReadIsolation AT_LEAST_ONCE = new ReadIsolation(false);

  private final boolean exactlyOnce;

  private ReadIsolation(boolean exactlyOnce) {
    this.exactlyOnce = exactlyOnce;
  }

  /** The isolation of lookups of an application that Kafka Streams runs with {@code config}. */
  public static ReadIsolation of(Map<?, ?> config) {
    Object guarantee = config.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG);
    return new ReadIsolation(
        guarantee != null && String.valueOf(guarantee).startsWith("exactly_once"));
  }

  /** Whether Kafka Streams processes exactly once, so that transactions commit its state. */
  public boolean exactlyOnce() {
    return this.exactlyOnce;
  }

  /** Whether a lookup of {@code view} under {@code bound} reads committed state only. */
  public boolean committed(ResolvedView<?, ?, ?> view, ReadBound bound) {
    Isolation asked = bound.isolation();
    if (asked == Isolation.UNCOMMITTED) {
      return false;
    }
    if (asked == null) {
      return this.exactlyOnce && view.window() == null;
    }
    if (!this.exactlyOnce) {
      throw new InvalidQueryException(
          view.name(),
          Isolation.PARAMETER,
          "isolation=committed needs exactly-once processing, and this application processes at"
              + " least once, so every applied update stays: leave isolation out, or set"
              + " spring.kafka.streams.properties.processing.guarantee=exactly_once_v2");
    }
    if (view.window() != null) {
      throw new InvalidQueryException(
          view.name(),
          Isolation.PARAMETER,
          "isolation=committed reads table views; view '"
              + view.name()
              + "' is windowed, and its windows are read as applied: leave isolation out or ask"
              + " isolation=uncommitted");
    }
    return true;
  }
}
