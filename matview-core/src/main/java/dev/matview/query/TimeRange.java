package dev.matview.query;

import dev.matview.query.answer.InvalidQueryException;
import dev.matview.view.ViewWindow;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The window starts [{@code from}, {@code to}] a windowed lookup or scan asks for, always within
 * what Kafka can store: record timestamps are epoch milliseconds from 0 to {@link Long#MAX_VALUE}.
 */
record TimeRange(Instant from, Instant to) {

  /** The earliest instant Kafka can store, 1970-01-01T00:00:00Z. */
  static final Instant EARLIEST = Instant.EPOCH;

  /** The latest instant Kafka can store, {@link Long#MAX_VALUE} epoch milliseconds. */
  static final Instant LATEST = Instant.ofEpochMilli(Long.MAX_VALUE);

  /** The range asked, by default the retention back from now (not before {@link #EARLIEST}). */
  static TimeRange of(
      String view, ViewWindow window, @Nullable Instant from, @Nullable Instant to, Clock clock) {
    Instant end = to != null ? storable(view, "to", to) : clock.instant();
    Instant start =
        from != null ? storable(view, "from", from) : minus(end, window.effectiveRetention());
    return checked(view, start, end);
  }

  /** The range [from, to] as asked, both required, checked as {@link #of} checks it. */
  static TimeRange exactly(String view, Instant from, Instant to) {
    return checked(view, storable(view, "from", from), storable(view, "to", to));
  }

  private static TimeRange checked(String view, Instant start, Instant end) {
    if (start.isAfter(end)) {
      throw new InvalidQueryException(
          view, "from", "'from' (" + start + ") must not be after 'to' (" + end + ")");
    }
    return new TimeRange(start, end);
  }

  /** {@code instant} when Kafka can store it, else refused as {@code parameter}. */
  static Instant storable(String view, String parameter, Instant instant) {
    if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
      throw new InvalidQueryException(
          view,
          parameter,
          "'"
              + parameter
              + "' ("
              + instant
              + ") is outside the instants Kafka can store: from "
              + EARLIEST
              + " to "
              + LATEST);
    }
    return instant;
  }

  /** {@code end} less {@code duration}, but not before {@link #EARLIEST}. */
  private static Instant minus(Instant end, Duration duration) {
    return duration.compareTo(Duration.between(EARLIEST, end)) >= 0
        ? EARLIEST
        : end.minus(duration);
  }
}
