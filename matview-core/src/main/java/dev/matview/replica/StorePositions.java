package dev.matview.replica;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.streams.processor.StateStore;
import org.jspecify.annotations.Nullable;

/**
 * The {@link AppliedOffset} of every open store partition of the views on this instance, active and
 * standby, by store name and partition: each registers when Kafka Streams opens the store and
 * leaves when it closes it. A read can wait for a partition's progress whether its store is open
 * yet or not ({@link #progress}). Each partition's {@link ChangeFeed} hands its updates to change
 * streams on the fan-out it is given.
 */
public final class StorePositions {

  /**
   * How many bytes of updates of a store partition a change feed keeps for streams that reconnect.
   */
  public static final long DEFAULT_HISTORY_BYTES = 1024 * 1024;

  /** How long a change feed keeps its history after its last stream left. */
  public static final Duration DEFAULT_HISTORY_LINGER = Duration.ofSeconds(30);

  private final ConcurrentMap<String, PartitionSlots<AppliedOffset>> stores =
      new ConcurrentHashMap<>();

  /** The reads that wait for a store partition to open here, by store name and partition. */
  private final ConcurrentMap<StorePartition, Set<OpeningWait>> opening = new ConcurrentHashMap<>();

  private final @Nullable ScheduledExecutorService fanOut;

  private volatile long historyBytes = DEFAULT_HISTORY_BYTES;

  private volatile Duration historyLinger = DEFAULT_HISTORY_LINGER;

  /**
   * Positions whose change feeds no stream can follow: a listener is ended at once, as by a store
   * partition that closes. For reads without change streams, such as the test kit's.
   */
  public StorePositions() {
    this.fanOut = null;
  }

  /**
   * Positions whose change feeds hand their updates to change streams on {@code fanOut}, a feed at
   * a time (its tasks must not block).
   */
  public StorePositions(ScheduledExecutorService fanOut) {
    this.fanOut = fanOut;
  }

  /**
   * Keeps at most {@code bytes} of the updates of each store partition a change stream follows, and
   * for {@code linger} after its last stream left.
   */
  public void keepHistory(long bytes, Duration linger) {
    this.historyBytes = bytes;
    this.historyLinger = linger;
  }

  /** The applied offset of {@code partition} of the store {@code name} here, or {@code null}. */
  public @Nullable AppliedOffset of(String name, int partition) {
    PartitionSlots<AppliedOffset> slots = this.stores.get(name);
    return (slots != null) ? slots.get(partition) : null;
  }

  /**
   * The progress of {@code partition} of the store {@code name} here towards {@code offset},
   * whichever store Kafka Streams opens for it: a read that waits on it is woken once the open
   * store has applied {@code offset} or closes, or, while none is open, once one opens.
   */
  public PartitionProgress progress(String name, int partition, long offset) {
    return (wake) -> await(name, partition, offset, wake);
  }

  private PartitionProgress.Wait await(String name, int partition, long offset, Runnable wake) {
    AppliedOffset open = of(name, partition);
    if (open != null) {
      OffsetWaiters.Waiter waiter = open.await(offset, wake);
      return () -> open.forget(waiter);
    }
    StorePartition key = new StorePartition(name, partition);
    OpeningWait waiting = new OpeningWait(wake);
    this.opening.compute(
        key,
        (ignored, waits) -> {
          Set<OpeningWait> added = (waits != null) ? waits : ConcurrentHashMap.newKeySet();
          added.add(waiting);
          return added;
        });
    if (of(name, partition) != null) {
      remove(key, waiting);
      waiting.wake();
    }
    return () -> {
      waiting.claim();
      remove(key, waiting);
    };
  }

  private void remove(StorePartition key, OpeningWait waiting) {
    this.opening.computeIfPresent(
        key,
        (ignored, waits) -> {
          waits.remove(waiting);
          return waits.isEmpty() ? null : waits;
        });
  }

  /** Kafka Streams opened {@code store}'s {@code partition}: it starts at Kafka's position. */
  AppliedOffset opened(String name, int partition, StateStore store) {
    AppliedOffset offset =
        new AppliedOffset(
            store, partition, new ChangeFeed(this.historyBytes, this.historyLinger, this.fanOut));
    offset.refresh();
    this.stores
        .computeIfAbsent(name, (ignored) -> new PartitionSlots<>(AppliedOffset::partition))
        .put(offset);
    Set<OpeningWait> waiting = this.opening.remove(new StorePartition(name, partition));
    if (waiting != null) {
      waiting.forEach(OpeningWait::wake);
    }
    return offset;
  }

  /** Kafka Streams closes the store that {@code offset} follows. */
  void closed(String name, AppliedOffset offset) {
    PartitionSlots<AppliedOffset> slots = this.stores.get(name);
    if (slots != null) {
      slots.remove(offset.partition(), (held) -> held == offset);
    }
    offset.close();
  }

  /**
   * Kafka Streams starts to write {@code partition} of the store {@code name} from its changelog.
   */
  void updating(String name, int partition) {
    AppliedOffset offset = of(name, partition);
    if (offset != null) {
      offset.changes().bypassed();
    }
  }

  /** A batch of {@code partition} of the store {@code name} was restored or loaded. */
  void batchWritten(String name, int partition) {
    AppliedOffset offset = of(name, partition);
    if (offset != null) {
      offset.refresh();
      offset.changes().bypassed();
    }
  }

  /** A partition of a store, by the store's name. */
  private record StorePartition(String name, int partition) {}

  /** A read's wait for a store partition to open: woken at most once. */
  private static final class OpeningWait {

    private final Runnable wake;

    private final AtomicBoolean claimed = new AtomicBoolean();

    OpeningWait(Runnable wake) {
      this.wake = wake;
    }

    boolean claim() {
      return this.claimed.compareAndSet(false, true);
    }

    void wake() {
      if (claim()) {
        this.wake.run();
      }
    }
  }
}
