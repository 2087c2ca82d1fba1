package dev.matview.changes;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The change streams this instance serves at once, at most {@code max}: each stream holds a slot
 * from the moment it starts to open, and gives it back exactly once, whatever ends it, a failed
 * open included.
 */
final class StreamSlots {

  private final AtomicInteger open = new AtomicInteger();

  private final int max;

  StreamSlots(int max) {
    this.max = max;
  }

  /**
   * A slot for a stream of {@code view}.
   *
   * @throws TooManyStreamsException when every slot is taken
   */
  Slot take(String view) {
    if (this.open.incrementAndGet() > this.max) {
      this.open.decrementAndGet();
      throw new TooManyStreamsException(view, this.max);
    }
    return new Slot();
  }

  /** How many slots are taken. */
  int taken() {
    return this.open.get();
  }

  /** One stream's slot. */
  final class Slot {

    private final AtomicBoolean released = new AtomicBoolean();

    private Slot() {}

    /** Gives the slot back; only the first call counts. */
    void release() {
      if (this.released.compareAndSet(false, true)) {
        StreamSlots.this.open.decrementAndGet();
      }
    }
  }
}
