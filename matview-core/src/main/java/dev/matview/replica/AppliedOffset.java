package dev.matview.replica;

import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.query.Position;
import org.jspecify.annotations.Nullable;

/**
 * How far one open store partition has read the topic that feeds it (the view's source topic, or
 * its repartition topic when the view re-keys): the offset of the last record whose processing
 * began, and of the last one whose processing ended. A lookup that must see a record waits here
 * until the second passes it.
 *
 * <p>The stream thread moves both as it processes records; a restore or standby update moves them
 * to Kafka's own position of the store after each batch. Offsets only grow. The lookups that wait
 * are kept in the order of the offsets they wait for, so that completing a record looks at the
 * lowest of them alone unless it is due: the stream thread pays the same whatever their number.
 */
public final class AppliedOffset {

  /** No record of the partition is known to be in the store. */
  public static final long NONE = -1;

  private final StateStore store;

  private final int partition;

  private final AtomicLong begun = new AtomicLong(NONE);

  private final AtomicLong applied = new AtomicLong(NONE);

  private final ConcurrentSkipListMap<Waiter, Boolean> waiters =
      new ConcurrentSkipListMap<>(Waiter.ORDER);

  private final AtomicLong registered = new AtomicLong();

  private final AtomicLong examined = new AtomicLong();

  private volatile AtomicLongArray inputs = new AtomicLongArray(0);

  private volatile boolean closed;

  private final ChangeFeed changes;

  AppliedOffset(StateStore store, int partition, ChangeFeed changes) {
    this.store = store;
    this.partition = partition;
    this.changes = changes;
  }

  /** The store partition's updates, for change streams. */
  public ChangeFeed changes() {
    return this.changes;
  }

  /**
   * The stream thread updated the store while processing the record whose processing began last:
   * tells the change feed. {@code value} is the stored value, {@code null} for a removal; the
   * window bounds are {@link StoreChange#NO_WINDOW} for a store without windows.
   */
  public void updated(byte[] key, byte @Nullable [] value, long windowStart, long windowEnd) {
    this.changes.changed(key, value, windowStart, windowEnd, begun());
  }

  /** The partition of the store, and of the topic that feeds it. */
  public int partition() {
    return this.partition;
  }

  /**
   * The offset of the last record whose processing began, which a read that follows may already
   * see: what an answer read before this call can claim to be at most as new as.
   */
  public long begun() {
    return this.begun.get();
  }

  /** The offset of the last record whose processing ended: every update it made is readable. */
  public long applied() {
    return this.applied.get();
  }

  /** Whether Kafka Streams closed the store; a new one takes its place when it opens it again. */
  public boolean isClosed() {
    return this.closed;
  }

  /** The stream thread begins to process the record at {@code offset}. */
  public void begin(long offset) {
    this.begun.accumulateAndGet(offset, Math::max);
  }

  /**
   * The offset of the last record of {@code partition} of the view's source topic that reached this
   * store partition through the repartition topic and was applied, or {@link #NONE}; a re-keyed
   * view's records of one source partition arrive in the order of their offsets.
   */
  public long inputApplied(int partition) {
    AtomicLongArray known = this.inputs;
    return (partition < known.length()) ? known.get(partition) : NONE;
  }

  /**
   * The stream thread is about to complete a record that came from {@code offset} of {@code
   * partition} of the view's source topic through the repartition topic.
   */
  public void inputApplied(int partition, long offset) {
    AtomicLongArray known = this.inputs;
    if (partition >= known.length()) {
      AtomicLongArray grown = new AtomicLongArray(partition + 1);
      for (int i = 0; i < grown.length(); i++) {
        grown.set(i, (i < known.length()) ? known.get(i) : NONE);
      }
      this.inputs = grown;
      known = grown;
    }
    if (offset > known.get(partition)) {
      known.set(partition, offset);
    }
  }

  /** The stream thread has processed the record at {@code offset} and all before it. */
  public void complete(long offset) {
    this.applied.accumulateAndGet(offset, Math::max);
    if (!this.waiters.isEmpty()) {
      wakeDue();
    }
  }

  /**
   * Kafka's own position of the store for this partition, which a restore and a standby update move
   * as they write each record (it comes with each changelog record), or {@link #NONE}.
   */
  public long storePosition() {
    Position position = this.store.getPosition();
    long offset = NONE;
    for (String topic : position.getTopics()) {
      Map<Integer, Long> partitions = position.getPartitionPositions(topic);
      Long known = partitions.get(this.partition);
      if (known != null) {
        offset = Math.max(offset, known);
      }
    }
    return offset;
  }

  /** Catches up with Kafka's own position of the store, after a batch restored or loaded. */
  void refresh() {
    long offset = storePosition();
    if (offset != NONE) {
      begin(offset);
      complete(offset);
    }
  }

  /**
   * Calls {@code wake} once the record at {@code offset} has been processed, or once the store
   * closes; at once when either has happened. {@code wake} runs on the thread that moved the
   * offset, a stream thread: it must hand its work to another.
   */
  public Waiter await(long offset, Runnable wake) {
    Waiter waiter = new Waiter(offset, this.registered.incrementAndGet(), wake);
    this.waiters.put(waiter, Boolean.TRUE);
    if (this.closed) {
      wakeAll();
    } else if (this.applied.get() >= offset) {
      wakeDue();
    }
    return waiter;
  }

  /** Forgets {@code waiter}, whose wait ended for another reason. */
  public void forget(Waiter waiter) {
    waiter.cancel();
    this.waiters.remove(waiter);
  }

  /** How many lookups wait here. */
  int waiting() {
    return this.waiters.size();
  }

  /** How many waiters the completions of records looked at, woken or not: for tests of the cost. */
  long examined() {
    return this.examined.get();
  }

  void close() {
    this.closed = true;
    wakeAll();
    this.changes.close();
  }

  /** Wakes the waiters whose offset has been applied, lowest first, looking at no other. */
  private void wakeDue() {
    long reached = this.applied.get();
    Waiter lowest;
    while ((lowest = lowest()) != null) {
      this.examined.incrementAndGet();
      if (lowest.offset > reached) {
        return;
      }
      wake(lowest);
    }
  }

  private void wakeAll() {
    Waiter lowest;
    while ((lowest = lowest()) != null) {
      wake(lowest);
    }
  }

  private @Nullable Waiter lowest() {
    Map.Entry<Waiter, Boolean> first = this.waiters.firstEntry();
    return (first != null) ? first.getKey() : null;
  }

  /** Takes {@code waiter} out and wakes it, unless another thread took it or it was cancelled. */
  private void wake(Waiter waiter) {
    if (this.waiters.remove(waiter) != null && waiter.claim()) {
      waiter.wake.run();
    }
  }

  /** One wait for an offset; {@link #cancel()} it when the wait ends for another reason. */
  public static final class Waiter {

    /** By the offset waited for, then by the order of registration. */
    private static final Comparator<Waiter> ORDER =
        Comparator.<Waiter>comparingLong((waiter) -> waiter.offset)
            .thenComparingLong((waiter) -> waiter.number);

    private final long offset;

    private final long number;

    private final Runnable wake;

    private final AtomicLong state = new AtomicLong();

    Waiter(long offset, long number, Runnable wake) {
      this.offset = offset;
      this.number = number;
      this.wake = wake;
    }

    private boolean claim() {
      return this.state.compareAndSet(0, 1);
    }

    /**
     * Ends the wait without waking it: true when it had not been woken, so the caller owns the
     * outcome.
     */
    public boolean cancel() {
      return this.state.compareAndSet(0, 2);
    }
  }
}
