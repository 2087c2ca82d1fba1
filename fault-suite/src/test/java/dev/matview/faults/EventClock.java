package dev.matview.faults;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The event time of the published orders: it runs from 4 s before a minute boundary to 4 s after it
 * over the whole load, so the orders fall into two one-minute windows per customer and no two
 * orders lie further apart than 8 s. With the view's 10 s grace no order can ever be late, whatever
 * order the instances process the partitions in after a kill: the windowed view's exact contents
 * follow from the published orders alone. (With {@code ts} = now, an instance that is down for
 * longer than the grace makes the orders it left behind late once another partition's stream time
 * has moved on, and which ones are dropped depends on timing.)
 */
final class EventClock {

  /** How far event time runs over the whole load. */
  static final Duration SPAN = Duration.ofSeconds(8);

  private final Instant first;

  private final long loadNanos;

  private final long startNanos;

  /** A clock for a load of {@code load} that starts now, a minute or two in the past. */
  EventClock(Duration load) {
    Instant boundary = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(1));
    this.first = boundary.minus(SPAN.dividedBy(2));
    this.loadNanos = load.toNanos();
    this.startNanos = System.nanoTime();
  }

  /** The event time of an order published now. */
  Instant now() {
    double progress =
        Math.min(1.0, (System.nanoTime() - this.startNanos) / (double) this.loadNanos);
    return this.first.plusMillis(Math.round(progress * SPAN.toMillis()));
  }

  /** The earliest window start the views can hold. */
  Instant earliestWindow() {
    return this.first.truncatedTo(ChronoUnit.MINUTES);
  }

  /** The latest window start the views can hold. */
  Instant latestWindow() {
    return this.first.plus(SPAN).truncatedTo(ChronoUnit.MINUTES);
  }
}
