package dev.matview.replica;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Lets reads of one store in until it closes, and makes the close wait for every read let in.
 *
 * <p>Reads are counted on stripes, each on cache lines of its own, so that request threads do not
 * contend on one counter. A read picks its stripe from its thread, increments it, then reads {@code
 * closed}; it leaves by decrementing <em>the same</em> stripe. The close sets {@code closed}, then
 * waits for each stripe in turn to read 0. This is exact, where a sum of cells read one after the
 * other (such as {@code LongAdder.sum()}, whose add may pick a different cell for a read's leaving
 * than for its entering) can read 0 while a read is under way:
 *
 * <ul>
 *   <li>a stripe's count is, at every point of time, the number of reads let in on it and not yet
 *       left, since a read's increment and decrement both land on it, and it is one atomic variable
 *       read at one point, not a sum of several read at different points;
 *   <li>the increments, decrements and reads of stripes and of {@code closed} are volatile
 *       accesses, which all threads see in one total order consistent with each thread's program
 *       order. Take a read and the close's reading of the read's stripe: if that reading comes
 *       after the read's increment, it sees the read counted until the read leaves, and the close
 *       waits; if it comes before, then {@code closed} was set before the increment, so the read's
 *       later look at {@code closed} sees it set and the read backs out without touching the store.
 * </ul>
 *
 * Once {@link #close()} returns, no read is under way and none will be let in.
 */
final class ReadGate {

  /** Answered by {@link #enter()} once the gate is closed. */
  static final int CLOSED = -1;

  /** Longs from one stripe to the next: 128 bytes, so stripes share no pair of cache lines. */
  private static final int PADDING = 16;

  private static final int MAX_STRIPES = 64;

  private final AtomicLongArray counts;

  private final int shift;

  private volatile boolean closed;

  /** A gate with a stripe for each of about twice as many threads as there are processors. */
  ReadGate() {
    this(Runtime.getRuntime().availableProcessors() * 2);
  }

  /** A gate with at least {@code threads} stripes, rounded up to a power of two, at most 64. */
  ReadGate(int threads) {
    int stripes = Math.min(MAX_STRIPES, Integer.highestOneBit(Math.max(threads, 2) * 2 - 1));
    this.shift = Long.SIZE - Integer.numberOfTrailingZeros(stripes);
    this.counts = new AtomicLongArray(stripes * PADDING);
  }

  /**
   * Lets a read in on this thread's stripe, which {@link #leave(int)} must then be given, or
   * answers {@link #CLOSED}.
   */
  int enter() {
    int stripe = stripeOfThisThread();
    this.counts.getAndIncrement(stripe);
    if (this.closed) {
      this.counts.getAndDecrement(stripe);
      return CLOSED;
    }
    return stripe;
  }

  /** Lets out the read that {@link #enter()} let in on {@code stripe}. */
  void leave(int stripe) {
    this.counts.getAndDecrement(stripe);
  }

  /** Lets no more reads in and waits for those let in to leave. */
  void close() {
    this.closed = true;
    for (int stripe = 0; stripe < this.counts.length(); stripe += PADDING) {
      while (this.counts.get(stripe) != 0) {
        Thread.yield();
      }
    }
  }

  private int stripeOfThisThread() {
    long mixed = Thread.currentThread().getId() * 0x9E3779B97F4A7C15L;
    return (int) (mixed >>> this.shift) * PADDING;
  }
}
