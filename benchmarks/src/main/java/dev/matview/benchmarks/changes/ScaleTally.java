package dev.matview.benchmarks.changes;

import java.util.BitSet;
import org.HdrHistogram.Histogram;

/**
 * The events that one group of streams at scale delivered of the recorded orders (their indices
 * from {@code first} to {@code end}): each counted once per reader, a reader being one view stream
 * or, for key streams, the group as a whole (every order reaches one key stream), and timed from
 * the time its order was meant to be sent to its arrival at the client.
 */
final class ScaleTally {

  private static final long HIGHEST_MICROS = 60_000_000;

  private final Histogram micros = new Histogram(HIGHEST_MICROS, 3);

  private final BitSet[] seen;

  private final long first;

  private final long end;

  private long received;

  private long duplicates;

  private long lastArrivalNanos = Long.MIN_VALUE;

  private boolean stopped;

  /** A tally of {@code readers} readers of the orders {@code first} (inclusive) to {@code end}. */
  ScaleTally(int readers, long first, long end) {
    this.seen = new BitSet[readers];
    for (int i = 0; i < readers; i++) {
      this.seen[i] = new BitSet();
    }
    this.first = first;
    this.end = end;
  }

  /**
   * {@code reader} received the event of order {@code index}, meant to be sent at {@code
   * sentNanos}, at {@code receivedNanos}; orders outside the recorded ones are left out.
   */
  synchronized void arrived(int reader, long index, long sentNanos, long receivedNanos) {
    if (this.stopped || index < this.first || index >= this.end) {
      return;
    }
    int bit = (int) (index - this.first);
    if (this.seen[reader].get(bit)) {
      this.duplicates++;
      return;
    }
    this.seen[reader].set(bit);
    this.received++;
    this.lastArrivalNanos = Math.max(this.lastArrivalNanos, receivedNanos);
    long latency = Math.max(1, (receivedNanos - sentNanos) / 1000);
    this.micros.recordValue(Math.min(latency, HIGHEST_MICROS));
  }

  /** Takes no more events: what arrives later (another phase's orders) is not this tally's. */
  synchronized void stop() {
    this.stopped = true;
  }

  /** The distinct events received, over every reader. */
  synchronized long received() {
    return this.received;
  }

  /** The events received again, counted each time. */
  synchronized long duplicates() {
    return this.duplicates;
  }

  /** The latency at {@code percentile}, in ms, or NaN when none arrived. */
  synchronized double millis(double percentile) {
    return Latencies.millis(this.micros, percentile);
  }

  /** The longest latency, in ms, or NaN when none arrived. */
  synchronized double maxMillis() {
    return Latencies.maxMillis(this.micros);
  }

  /**
   * Events delivered a second: those received over the time from {@code firstSentNanos}, when the
   * first recorded order was meant to be sent, to the last arrival; a client or an instance that
   * falls behind stretches that time.
   */
  synchronized double perSecond(long firstSentNanos) {
    long nanos = this.lastArrivalNanos - firstSentNanos;
    return (this.received > 0 && nanos > 0) ? this.received / (nanos / 1e9) : Double.NaN;
  }
}
