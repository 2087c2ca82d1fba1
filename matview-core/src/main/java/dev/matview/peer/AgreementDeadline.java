package dev.matview.peer;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * The moment by which a secret agreement must be done, and the time each call to the broker has.
 */
final class AgreementDeadline {

  private final long deadlineNanos;

  private AgreementDeadline(long deadlineNanos) {
    this.deadlineNanos = deadlineNanos;
  }

  /** The deadline {@code timeout} from now. */
  static AgreementDeadline after(Duration timeout) {
    return new AgreementDeadline(System.nanoTime() + timeout.toNanos());
  }

  /**
   * The nanoseconds left, always positive; throws {@link TimeoutException} when the deadline has
   * passed.
   */
  long remainingNanos() throws TimeoutException {
    long remaining = this.deadlineNanos - System.nanoTime();
    if (remaining <= 0) {
      throw new TimeoutException("The broker did not answer in time");
    }
    return remaining;
  }

  /**
   * The time left, always positive; throws {@link TimeoutException} when the deadline has passed.
   */
  Duration remaining() throws TimeoutException {
    return Duration.ofNanos(remainingNanos());
  }

  /** Whether the deadline has passed. */
  boolean passed() {
    return this.deadlineNanos - System.nanoTime() <= 0;
  }
}
