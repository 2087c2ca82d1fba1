package dev.matview.replica;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * The updates of one open store partition, as the stream thread makes them, for change streams:
 * handed to each listener at once, and kept in a ring of the last {@code history} updates once a
 * first listener came, so that a stream that reconnects can go on where it stopped. A restore or a
 * standby's load writes the store without passing here, so it ends the listeners and the ring.
 * Costs one volatile read per update while nobody listens.
 */
public final class ChangeFeed {

  private final int history;

  private final CopyOnWriteArrayList<ChangeListener> listeners = new CopyOnWriteArrayList<>();

  private volatile boolean closed;

  private volatile @Nullable Ring ring;

  private long lastOffset = AppliedOffset.NONE;

  private int nextSequence;

  ChangeFeed(int history) {
    this.history = history;
  }

  /** The stream thread updated the store while processing the record at {@code offset}. */
  void changed(byte[] key, byte @Nullable [] value, long windowStart, long windowEnd, long offset) {
    Ring kept = this.ring;
    if (kept == null) {
      return;
    }
    int sequence = (offset == this.lastOffset) ? this.nextSequence : 0;
    this.lastOffset = offset;
    this.nextSequence = sequence + 1;
    StoreChange change = new StoreChange(key, value, windowStart, windowEnd, offset, sequence);
    kept.add(change);
    for (ChangeListener listener : this.listeners) {
      listener.changed(change);
    }
  }

  /** Whether a stream follows the feed or did since the last restore: updates are kept. */
  public boolean isFollowed() {
    return this.ring != null;
  }

  /**
   * Hands {@code listener} every update from now on, on the stream thread, until {@link #stop}; it
   * must not block. {@code from} is the offset of the last record whose processing began.
   */
  public synchronized void listen(ChangeListener listener, long from) {
    if (this.ring == null) {
      this.ring = new Ring(this.history, from);
    }
    this.listeners.add(listener);
    if (this.closed) {
      this.listeners.remove(listener);
      listener.closed();
    }
  }

  /**
   * The store is written from its changelog, bypassing the feed (a restore, or a standby's updates
   * after the task moved): every listener hears that no update follows, and the updates kept are
   * forgotten, so that no stream goes on across ones it never saw; the next listener starts a new
   * history.
   */
  synchronized void bypassed() {
    for (ChangeListener listener : this.listeners) {
      listener.closed();
    }
    this.listeners.clear();
    this.ring = null;
  }

  /** Stops handing {@code listener} updates. */
  public void stop(ChangeListener listener) {
    this.listeners.remove(listener);
  }

  /** The store partition closes: every listener hears so, and the feed keeps none. */
  synchronized void close() {
    this.closed = true;
    for (ChangeListener listener : this.listeners) {
      listener.closed();
    }
    this.listeners.clear();
  }

  /**
   * The kept updates after {@code offset} and {@code sequence}, oldest first, or {@code null} when
   * the ring no longer holds every one of them.
   */
  public @Nullable List<StoreChange> since(long offset, int sequence) {
    Ring kept = this.ring;
    return (kept != null) ? kept.since(offset, sequence) : null;
  }

  /** How many listeners the feed has. */
  public int listeners() {
    return this.listeners.size();
  }

  /** The last updates, in a ring that remembers the newest update it dropped. */
  private static final class Ring {

    private final StoreChange[] changes;

    private int next;

    private int size;

    private @Nullable StoreChange dropped;

    private boolean complete = true;

    private final long from;

    /** A ring that holds every update of records after {@code from}, until it is full. */
    Ring(int capacity, long from) {
      this.changes = new StoreChange[Math.max(1, capacity)];
      this.from = from;
    }

    synchronized void add(StoreChange change) {
      if (this.size == this.changes.length) {
        this.dropped = this.changes[this.next];
        this.complete = false;
      } else {
        this.size++;
      }
      this.changes[this.next] = change;
      this.next = (this.next + 1) % this.changes.length;
    }

    synchronized @Nullable List<StoreChange> since(long offset, int sequence) {
      if (offset <= this.from) {
        return null;
      }
      StoreChange lost = this.dropped;
      if (!this.complete && lost != null && lost.isAfter(offset, sequence)) {
        return null;
      }
      List<StoreChange> after = new ArrayList<>();
      int first = (this.next - this.size + this.changes.length) % this.changes.length;
      for (int i = 0; i < this.size; i++) {
        StoreChange change = this.changes[(first + i) % this.changes.length];
        if (change.isAfter(offset, sequence)) {
          after.add(change);
        }
      }
      return after;
    }
  }
}
