package dev.matview.benchmarks.changes;

import java.time.Instant;
import tools.jackson.databind.JsonNode;

/**
 * Times of this JVM's {@link System#nanoTime()} written as instants and read back: an order's
 * {@code ts} says when it was meant to be sent, and whoever reads it in this JVM gets that time
 * back to the nanosecond, with no wall clock read in between.
 */
final class SendClock {

  private final long originNanos = System.nanoTime();

  private final Instant origin = Instant.now();

  /** The instant of {@code nanos}, a time of {@link System#nanoTime()}. */
  Instant instant(long nanos) {
    return this.origin.plusNanos(nanos - this.originNanos);
  }

  /** The {@link System#nanoTime()} of {@code instant}. */
  long nanos(Instant instant) {
    long seconds = instant.getEpochSecond() - this.origin.getEpochSecond();
    long nanos = instant.getNano() - this.origin.getNano();
    return this.originNanos + seconds * 1_000_000_000L + nanos;
  }

  /** The {@link System#nanoTime()} of a {@code ts} as Jackson 3 writes an instant: ISO-8601. */
  long nanos(JsonNode ts) {
    return nanos(Instant.parse(ts.asString()));
  }
}
