package dev.matview.topology;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The event times a view accepts: from the epoch (Kafka stores no earlier timestamp) to {@code
 * maxAhead} after the clock, so that no record moves stream time far ahead or reaches a broker that
 * refuses its timestamp ({@code log.message.timestamp.after.max.ms}, one hour by default).
 */
public record EventTimeBounds(Duration maxAhead, Clock clock) {

  /** One minute ahead of the system clock. */
  public static final EventTimeBounds STANDARD =
      new EventTimeBounds(Duration.ofMinutes(1), Clock.systemUTC());

  /** Checks the bound. */
  public EventTimeBounds {
    if (maxAhead.isNegative()) {
      throw new IllegalArgumentException("maxAhead must not be negative, not " + maxAhead);
    }
  }

  /** Whether {@code eventTime} (epoch millis) lies within the bounds at {@code now}. */
  boolean accepts(long eventTime, Instant now) {
    return eventTime >= 0 && eventTime - now.toEpochMilli() <= this.maxAhead.toMillis();
  }
}
