package dev.matview.replica;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * The updates of one open store partition, as the stream thread makes them, for change streams. The
 * stream thread appends each update to the partition's {@link ChangeHistory} while a stream follows
 * it, and a thread of {@code fanOut} hands the updates to the listeners, each in the order made, a
 * listener of one key only its key's: the stream thread pays the same whatever the number of
 * listeners, and one volatile read per update while nobody listens. The history lets a stream that
 * reconnects go on where it stopped; it is released {@code linger} after its last listener left. A
 * restore or a standby's load writes the store without passing here, so it ends the listeners and
 * the history. A feed without a fan-out has nothing to hand its updates on: it ends a listener at
 * once, as a closed one does.
 */
public final class ChangeFeed {

  /** The most updates handed on in one turn of the fan-out, before other feeds get theirs. */
  private static final int BATCH = 1024;

  /** How long the fan-out waits before it looks again at a feed that had updates lately. */
  private static final Duration LOOK = Duration.ofMillis(1);

  /** How many looks without an update the fan-out makes before the stream thread wakes it again. */
  private static final int IDLE_LOOKS = 20;

  private final long historyBytes;

  private final Duration linger;

  private final @Nullable ScheduledExecutorService fanOut;

  private final AtomicBoolean scheduled = new AtomicBoolean();

  private final FeedListeners listeners = new FeedListeners();

  private volatile boolean closed;

  private volatile @Nullable ChangeHistory history;

  private long lastLeft;

  private int idleLooks;

  private long lastOffset = AppliedOffset.NONE;

  private int nextSequence;

  /**
   * A feed that keeps at most {@code historyBytes} of updates while followed, and {@code linger}
   * after the last listener left, and hands them to listeners on {@code fanOut}, when given.
   */
  ChangeFeed(long historyBytes, Duration linger, @Nullable ScheduledExecutorService fanOut) {
    this.historyBytes = historyBytes;
    this.linger = linger;
    this.fanOut = fanOut;
  }

  /** The stream thread updated the store while processing the record at {@code offset}. */
  void changed(byte[] key, byte @Nullable [] value, long windowStart, long windowEnd, long offset) {
    ChangeHistory kept = this.history;
    if (kept == null) {
      return;
    }
    int sequence = (offset == this.lastOffset) ? this.nextSequence : 0;
    this.lastOffset = offset;
    this.nextSequence = sequence + 1;
    kept.add(new StoreChange(key, value, windowStart, windowEnd, offset, sequence));
    if (this.listeners.count() > 0) {
      handOn();
    }
  }

  /** Whether a stream follows the feed, or left it less than the linger ago: updates are kept. */
  public boolean isFollowed() {
    return this.history != null;
  }

  /**
   * Hands {@code listener} every update from now on, of its {@link ChangeListener#key()} or of
   * every key, on a thread of the fan-out, until {@link #stop}; it must not block. {@code from} is
   * the offset of the last record whose processing began.
   */
  public synchronized void listen(ChangeListener listener, long from) {
    if (this.closed || this.fanOut == null) {
      listener.closed();
      return;
    }
    ChangeHistory kept = this.history;
    if (kept == null) {
      kept = new ChangeHistory(this.historyBytes, from);
      this.history = kept;
    }
    long next = kept.next();
    if (this.listeners.count() == 0) {
      kept.handedOn(next);
    }
    this.listeners.add(listener, next);
  }

  /** Stops handing {@code listener} updates; the last one to leave releases the history. */
  public synchronized void stop(ChangeListener listener) {
    if (this.listeners.remove(listener) && this.listeners.count() == 0) {
      long left = ++this.lastLeft;
      ChangeHistory kept = this.history;
      ScheduledExecutorService threads = this.fanOut;
      if (this.linger.isZero() || threads == null) {
        release(left, kept);
        return;
      }
      try {
        threads.schedule(() -> release(left, kept), this.linger.toNanos(), TimeUnit.NANOSECONDS);
      } catch (RejectedExecutionException ex) {
        release(left, kept);
      }
    }
  }

  /**
   * The store is written from its changelog, bypassing the feed (a restore, or a standby's updates
   * after the task moved): every listener hears that no update follows, and the updates kept are
   * forgotten, so that no stream goes on across ones it never saw; the next listener starts a new
   * history.
   */
  synchronized void bypassed() {
    endAll();
    this.history = null;
  }

  /** The store partition closes: every listener hears so, and the feed keeps none. */
  synchronized void close() {
    this.closed = true;
    endAll();
    this.history = null;
  }

  /**
   * The kept updates after {@code offset} and {@code sequence}, oldest first, or {@code null} when
   * the history no longer holds every one of them.
   */
  public @Nullable List<StoreChange> since(long offset, int sequence) {
    ChangeHistory kept = this.history;
    return (kept != null) ? kept.since(offset, sequence) : null;
  }

  /** How many listeners the feed has. */
  public int listeners() {
    return this.listeners.count();
  }

  /** The bytes of updates the feed keeps, by {@link ChangeHistory#sizeOf(StoreChange)}. */
  long historyBytes() {
    ChangeHistory kept = this.history;
    return (kept != null) ? kept.bytes() : 0;
  }

  /** How many updates the feed keeps. */
  int historySize() {
    ChangeHistory kept = this.history;
    return (kept != null) ? kept.size() : 0;
  }

  /** Has the fan-out hand on what waits, unless it is at it or looks again soon. */
  private void handOn() {
    ScheduledExecutorService threads = this.fanOut;
    if (threads != null && !this.scheduled.get() && this.scheduled.compareAndSet(false, true)) {
      try {
        threads.execute(this::fanOut);
      } catch (RejectedExecutionException ex) {
        this.scheduled.set(false);
      }
    }
  }

  /**
   * On a fan-out thread: hands a batch of waiting updates on, then lets another feed have one;
   * while the feed had updates in the last {@link #IDLE_LOOKS} looks, it looks again every {@link
   * #LOOK} instead of being woken by the stream thread for each update.
   */
  private void fanOut() {
    ChangeHistory kept = this.history;
    boolean handed = false;
    try {
      if (kept != null) {
        long next = kept.handedOn();
        ChangeHistory.Batch batch = kept.after(next, BATCH);
        if (batch.start() > next) {
          fellBehind(batch.start());
        }
        long number = batch.start();
        for (StoreChange change : batch.changes()) {
          this.listeners.handOn(change, number++);
        }
        kept.handedOn(batch.end());
        handed = !batch.changes().isEmpty();
      }
      this.idleLooks = handed ? 0 : this.idleLooks + 1;
      ScheduledExecutorService threads = this.fanOut;
      if (threads != null && kept != null && kept == this.history && this.listeners.count() > 0) {
        if (kept.hasWaiting()) {
          threads.execute(this::fanOut);
          return;
        }
        if (this.idleLooks < IDLE_LOOKS) {
          threads.schedule(this::fanOut, LOOK.toNanos(), TimeUnit.NANOSECONDS);
          return;
        }
      }
    } catch (RejectedExecutionException ex) {
      // The instance stops: nothing hands the updates on any more.
    }
    this.idleLooks = 0;
    this.scheduled.set(false);
    ChangeHistory now = this.history;
    if (now != null && now.hasWaiting() && this.listeners.count() > 0) {
      handOn();
    }
  }

  /**
   * The history dropped updates before {@code kept} that the fan-out had not handed on yet: the
   * listeners that should have had them hear that they fell behind.
   */
  private synchronized void fellBehind(long kept) {
    for (ChangeListener listener : this.listeners.removeBefore(kept)) {
      listener.fellBehind();
    }
  }

  private synchronized void release(long left, @Nullable ChangeHistory kept) {
    if (this.lastLeft == left && this.listeners.count() == 0 && this.history == kept) {
      this.history = null;
    }
  }

  private void endAll() {
    for (ChangeListener listener : this.listeners.removeAll()) {
      listener.closed();
    }
  }
}
