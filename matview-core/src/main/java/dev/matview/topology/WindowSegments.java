package dev.matview.topology;

import dev.matview.view.ViewWindow;
import java.time.Duration;
import org.apache.kafka.streams.state.Stores;

/**
 * The segments Kafka Streams splits a window or session store into, as its own store suppliers size
 * them for the view's retention: each segment is a RocksDB store of its own.
 */
public final class WindowSegments {

  private static final String ANY_NAME = "segments";

  private WindowSegments() {}

  /** How long a span of time one segment holds: windows by their start, sessions by their end. */
  public static Duration interval(ViewWindow window) {
    Duration retention = window.effectiveRetention();
    long millis =
        window.type() == ViewWindow.Type.SESSION
            ? Stores.persistentSessionStore(ANY_NAME, retention).segmentIntervalMs()
            : Stores.persistentTimestampedWindowStore(ANY_NAME, retention, window.size(), false)
                .segmentIntervalMs();
    return Duration.ofMillis(millis);
  }

  /**
   * The end of the last segment but one of the epoch milliseconds, the latest time Kafka Streams'
   * record cache can read: the last segment's end lies past {@link Long#MAX_VALUE}, and a read of
   * the cache that reaches into it fails.
   */
  public static long lastCacheReadable(ViewWindow window) {
    long interval = interval(window).toMillis();
    return Math.floorDiv(Long.MAX_VALUE, interval) * interval - 1;
  }

  /** How many segments of one partition hold live data at once: the retention's, and one more. */
  public static long live(ViewWindow window) {
    return window.effectiveRetention().toMillis() / interval(window).toMillis() + 1;
  }
}
