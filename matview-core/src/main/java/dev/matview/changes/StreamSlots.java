package dev.matview.changes;

import dev.matview.observation.MatviewObservations;
import io.micrometer.observation.Observation;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The change streams this instance serves at once, at most {@code max}: each stream holds a slot
 * from the moment it starts to open, and gives it back exactly once, whatever ends it, a failed
 * open included; the stream's observation ends with it.
 */
final class StreamSlots {

  private final AtomicInteger open = new AtomicInteger();

  private final int max;

  StreamSlots(int max) {
    this.max = max;
  }

  /**
   * A slot for a stream of {@code view}, observed by {@code observation}, which its release stops;
   * throws {@link TooManyStreamsException} when every slot is taken.
   */
  Slot take(String view, Observation observation) {
    if (this.open.incrementAndGet() > this.max) {
      this.open.decrementAndGet();
      TooManyStreamsException refused = new TooManyStreamsException(view, this.max);
      MatviewObservations.stop(observation, "refused", refused);
      throw refused;
    }
    return new Slot(observation);
  }

  /** How many slots are taken. */
  int taken() {
    return this.open.get();
  }

  /** One stream's slot. */
  final class Slot {

    private final AtomicBoolean released = new AtomicBoolean();

    private final Observation observation;

    private volatile String outcome = "refused";

    private Slot(Observation observation) {
      this.observation = observation;
    }

    /** The observation of the stream, under which what it asks of others is observed. */
    Observation observation() {
      return this.observation;
    }

    /** Says that the stream opened, {@code local} or {@code relayed}. */
    void opened(String outcome) {
      this.outcome = outcome;
    }

    /** Gives the slot back, stopping the observation; only the first call counts. */
    void release() {
      if (this.released.compareAndSet(false, true)) {
        StreamSlots.this.open.decrementAndGet();
        MatviewObservations.stop(this.observation, this.outcome);
      }
    }

    /** Gives the slot back after {@code failure} refused the stream. */
    void refused(Throwable failure) {
      this.outcome = "refused";
      if (!this.released.get()) {
        this.observation.error(failure);
      }
      release();
    }
  }
}
