package dev.matview.test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/** The wall clock of a {@link ViewTestDriver}: it stands still until the test advances it. */
final class DriverClock extends Clock {

  private final AtomicReference<Instant> now;

  private final ZoneId zone;

  DriverClock(Instant start) {
    this(new AtomicReference<>(start), ZoneOffset.UTC);
  }

  private DriverClock(AtomicReference<Instant> now, ZoneId zone) {
    this.now = now;
    this.zone = zone;
  }

  /** Moves this clock, and every clock made from it with another zone, {@code duration} ahead. */
  void advance(Duration duration) {
    this.now.updateAndGet(instant -> instant.plus(duration));
  }

  @Override
  public Instant instant() {
    return Objects.requireNonNull(this.now.get());
  }

  @Override
  public ZoneId getZone() {
    return this.zone;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return new DriverClock(this.now, zone);
  }
}
