package dev.matview.replica;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The last updates of a store partition that a change stream follows, numbered in the order kept:
 * at most {@code maxBytes} of them by {@link #sizeOf(StoreChange)} (or the newest alone, when it
 * alone is larger), so that a stream that reconnects goes on where it stopped, and so that the
 * updates not yet handed to the streams wait here. Adding one costs the same whatever the history
 * holds: each update is dropped at most once.
 */
final class ChangeHistory {

  /** What an update costs besides its key's and value's bytes: the update and its two arrays. */
  static final int OVERHEAD = 96;

  private final long maxBytes;

  private final long from;

  private @Nullable StoreChange[] ring = new StoreChange[16];

  private int head;

  private int size;

  private final AtomicLong handedOn = new AtomicLong();

  private long first;

  private long bytes;

  private @Nullable StoreChange dropped;

  private volatile long next;

  /** A history of at most {@code maxBytes} of the updates of records after {@code from}. */
  ChangeHistory(long maxBytes, long from) {
    this.maxBytes = maxBytes;
    this.from = from;
  }

  /** What {@code change} takes of the heap, about. */
  static long sizeOf(StoreChange change) {
    byte[] value = change.value();
    return OVERHEAD + change.key().length + ((value != null) ? value.length : 0);
  }

  /** Keeps {@code change}, dropping the oldest updates beyond the bound. */
  synchronized void add(StoreChange change) {
    if (this.size == this.ring.length) {
      @Nullable StoreChange[] grown = new StoreChange[this.ring.length * 2];
      for (int i = 0; i < this.size; i++) {
        grown[i] = this.ring[(this.head + i) % this.ring.length];
      }
      this.ring = grown;
      this.head = 0;
    }
    this.ring[(this.head + this.size) % this.ring.length] = change;
    this.size++;
    this.bytes += sizeOf(change);
    while (this.bytes > this.maxBytes && this.size > 1) {
      StoreChange oldest = get(0);
      this.ring[this.head] = null;
      this.head = (this.head + 1) % this.ring.length;
      this.size--;
      this.bytes -= sizeOf(oldest);
      this.dropped = oldest;
      this.first++;
    }
    this.next++;
  }

  /** The {@code index}th update kept, from the oldest. */
  private StoreChange get(int index) {
    return Objects.requireNonNull(this.ring[(this.head + index) % this.ring.length]);
  }

  /** The number the next update kept will have. */
  long next() {
    return this.next;
  }

  /** Whether updates wait to be handed on to the streams. */
  boolean hasWaiting() {
    return this.handedOn.get() < this.next;
  }

  /** The number of the first update not yet handed on to the streams. */
  long handedOn() {
    return this.handedOn.get();
  }

  /** Every update before {@code number} has been handed on, or needs not be. */
  void handedOn(long number) {
    this.handedOn.accumulateAndGet(number, Math::max);
  }

  /**
   * At most {@code max} updates from the one numbered {@code number} on, oldest first, with the
   * number of the first: a later one when the history dropped those before it.
   */
  synchronized Batch after(long number, int max) {
    long start = Math.max(number, this.first);
    int skip = (int) (start - this.first);
    int count = Math.max(0, Math.min(max, this.size - skip));
    List<StoreChange> batch = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      batch.add(get(skip + i));
    }
    return new Batch(start, batch);
  }

  /**
   * The kept updates after {@code offset} and {@code sequence}, oldest first, or {@code null} when
   * the history no longer holds every one of them.
   */
  synchronized @Nullable List<StoreChange> since(long offset, int sequence) {
    if (offset <= this.from) {
      return null;
    }
    StoreChange lost = this.dropped;
    if (lost != null && lost.isAfter(offset, sequence)) {
      return null;
    }
    List<StoreChange> after = new ArrayList<>();
    for (int i = 0; i < this.size; i++) {
      StoreChange change = get(i);
      if (change.isAfter(offset, sequence)) {
        after.add(change);
      }
    }
    return after;
  }

  /** The bytes the history holds, by {@link #sizeOf(StoreChange)}. */
  synchronized long bytes() {
    return this.bytes;
  }

  /** How many updates the history holds. */
  synchronized int size() {
    return this.size;
  }

  /** Updates handed on together, oldest first, {@code start} the number of the first. */
  record Batch(long start, List<StoreChange> changes) {

    /** The number of the update after the last. */
    long end() {
      return this.start + this.changes.size();
    }
  }
}
