package dev.matview.benchmarks.changes;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.HdrHistogram.Histogram;

/**
 * The latencies of the updates that a reader saw, each from its intended send time to its arrival,
 * counted once per update (an update seen twice is counted as a duplicate).
 */
final class Latencies {

  private static final long HIGHEST_MICROS = 60_000_000;

  private final Histogram micros = new Histogram(HIGHEST_MICROS, 3);

  private final Set<Long> seen = ConcurrentHashMap.newKeySet();

  private volatile long fromNanos = Long.MAX_VALUE;

  private int duplicates;

  /** Records the updates meant to be sent from {@code nanos} on; until then, none. */
  void recordFrom(long nanos) {
    this.fromNanos = nanos;
  }

  /** The update meant to be sent at {@code sentNanos} arrived at {@code receivedNanos}. */
  void arrived(long sentNanos, long receivedNanos) {
    if (sentNanos < this.fromNanos) {
      return;
    }
    if (!this.seen.add(sentNanos)) {
      synchronized (this) {
        this.duplicates++;
      }
      return;
    }
    long latency = Math.max(1, (receivedNanos - sentNanos) / 1000);
    synchronized (this) {
      this.micros.recordValue(Math.min(latency, HIGHEST_MICROS));
    }
  }

  /** The distinct updates that arrived. */
  int received() {
    return this.seen.size();
  }

  /** The updates that arrived more than once, counted again each time. */
  synchronized int duplicates() {
    return this.duplicates;
  }

  /** The latency at {@code percentile}, in ms, or NaN when none arrived. */
  synchronized double millis(double percentile) {
    return millis(this.micros, percentile);
  }

  /** The longest latency, in ms, or NaN when none arrived. */
  synchronized double maxMillis() {
    return maxMillis(this.micros);
  }

  /** The latency at {@code percentile} of {@code micros}, in ms, or NaN when it has none. */
  static double millis(Histogram micros, double percentile) {
    return (micros.getTotalCount() > 0)
        ? micros.getValueAtPercentile(percentile) / 1000.0
        : Double.NaN;
  }

  /** The longest latency of {@code micros}, in ms, or NaN when it has none. */
  static double maxMillis(Histogram micros) {
    return (micros.getTotalCount() > 0) ? micros.getMaxValue() / 1000.0 : Double.NaN;
  }
}
