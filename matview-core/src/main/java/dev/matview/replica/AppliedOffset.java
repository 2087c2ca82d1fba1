package dev.matview.replica;

import java.util.Map;
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
 * are {@link OffsetWaiters}.
 */
public final class AppliedOffset {

  /** No record of the partition is known to be in the store. */
  public static final long NONE = -1;

  private final StateStore store;

  private final int partition;

  private final AtomicLong begun = new AtomicLong(NONE);

  private final AtomicLong applied = new AtomicLong(NONE);

  private final OffsetWaiters waiters = new OffsetWaiters();

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

  /** How many partitions of the view's source topic {@link #inputApplied(int)} knows of. */
  int inputPartitions() {
    return this.inputs.length();
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
      this.waiters.wakeDue(this.applied.get());
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
  public OffsetWaiters.Waiter await(long offset, Runnable wake) {
    OffsetWaiters.Waiter waiter = this.waiters.add(offset, wake);
    if (this.closed) {
      this.waiters.wakeAll();
    } else if (this.applied.get() >= offset) {
      this.waiters.wakeDue(this.applied.get());
    }
    return waiter;
  }

  /** Forgets {@code waiter}, whose wait ended for another reason. */
  public void forget(OffsetWaiters.Waiter waiter) {
    this.waiters.forget(waiter);
  }

  /** How many lookups wait here. */
  int waiting() {
    return this.waiters.size();
  }

  /** How many waiters the completions of records looked at, woken or not: for tests of the cost. */
  long examined() {
    return this.waiters.examined();
  }

  void close() {
    this.closed = true;
    this.waiters.wakeAll();
    this.changes.close();
  }
}
