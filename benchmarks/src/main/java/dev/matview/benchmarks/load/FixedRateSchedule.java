package dev.matview.benchmarks.load;

/**
 * When each request of a fixed-rate run is meant to be sent: the {@code i}th at {@code start + i *
 * interval}, whatever happened to the ones before. Latency measured from these times includes the
 * wait a slow answer imposes on the requests queued behind it (coordinated omission corrected).
 */
public final class FixedRateSchedule {

  private final long startNanos;

  private final double intervalNanos;

  /** A schedule of {@code perSecond} requests a second from {@code startNanos}. */
  public FixedRateSchedule(long startNanos, double perSecond) {
    if (perSecond <= 0) {
      throw new IllegalArgumentException("A fixed rate must be positive, not " + perSecond);
    }
    this.startNanos = startNanos;
    this.intervalNanos = 1e9 / perSecond;
  }

  /** The time the {@code index}th request (from 0) is meant to be sent. */
  public long intendedNanos(long index) {
    return this.startNanos + Math.round(index * this.intervalNanos);
  }

  /** The latency of a request meant for {@code intendedNanos} that was answered at {@code done}. */
  public static long latencyNanos(long intendedNanos, long sentNanos, long doneNanos) {
    return doneNanos - Math.min(intendedNanos, sentNanos);
  }
}
