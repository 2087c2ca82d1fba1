package dev.matview.query;

import dev.matview.view.ViewWindow;
import java.time.Clock;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The window starts a windowed lookup or scan asks for.
 *
 * @param from the earliest window start, inclusive
 * @param to the latest window start, inclusive
 */
record TimeRange(Instant from, Instant to) {

  /**
   * The range asked, by default the view's retention back from now, and now.
   *
   * @throws InvalidQueryException when {@code from} is after {@code to}
   */
  static TimeRange of(
      String view, ViewWindow window, @Nullable Instant from, @Nullable Instant to, Clock clock) {
    Instant end = to != null ? to : clock.instant();
    Instant start = from != null ? from : end.minus(window.effectiveRetention());
    if (start.isAfter(end)) {
      throw new InvalidQueryException(
          view, "from", "'from' (" + start + ") must not be after 'to' (" + end + ")");
    }
    return new TimeRange(start, end);
  }
}
