package dev.matview.health;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.processor.TaskId;
import org.jspecify.annotations.Nullable;

/**
 * Tracks, per local store partition, how far its active restore or standby update is behind the
 * changelog, from Kafka Streams' restore and standby callbacks, and logs restore progress.
 *
 * <p>Lag is counted in changelog offsets from the callbacks' own offsets, never from Kafka's
 * remaining-records metric, which does not reach zero on compacted changelogs with transaction
 * markers; an active partition's lag is 0 once Kafka Streams reports its restore ended. Each
 * callback does constant work, and readers on other threads see consistent snapshots. A partition
 * whose restore or standby update is suspended (moved to another instance) is dropped.
 */
public final class RestoreLagTracker implements StateRestoreListener, StandbyUpdateListener {

  /** How often the progress of one restoring partition is logged, after its first batch. */
  public static final Duration DEFAULT_PROGRESS_INTERVAL = Duration.ofSeconds(5);

  private static final Log logger = LogFactory.getLog(RestoreLagTracker.class);

  private static final Comparator<PartitionLag> ORDER =
      Comparator.comparing(PartitionLag::store).thenComparingInt(PartitionLag::partition);

  private final ConcurrentMap<StorePartition, PartitionProgress> partitions =
      new ConcurrentHashMap<>();

  private final List<Listener> listeners = new CopyOnWriteArrayList<>();

  private final LongSupplier nanoTime;

  private final long progressIntervalNanos;

  private volatile Runnable lagWanted = () -> {};

  /** A tracker on the system's clock that logs progress every five seconds per partition. */
  public RestoreLagTracker() {
    this(System::nanoTime, DEFAULT_PROGRESS_INTERVAL);
  }

  /** A tracker that reads time from {@code nanoTime} and logs progress every {@code interval}. */
  public RestoreLagTracker(LongSupplier nanoTime, Duration progressInterval) {
    this.nanoTime = nanoTime;
    this.progressIntervalNanos = progressInterval.toNanos();
  }

  /**
   * Calls {@code asker} whenever a replica's lag is not known and someone wants it: a standby has
   * just started, or a lookup met it; {@link LagReports} then asks Kafka Streams soon.
   */
  public void whenLagWanted(Runnable asker) {
    this.lagWanted = asker;
  }

  /**
   * Forgets what it knew of {@code partition} of {@code store}, which Kafka Streams has just opened
   * anew (after a crash its state may have been wiped): until a restore or standby update of the
   * new store starts, this instance claims no lag for it, so no stale read trusts a lag that held
   * for the store before.
   */
  public void storeOpened(String store, int partition) {
    drop(new StorePartition(store, partition));
  }

  /** Says that the lag of a replica is wanted and not known. */
  void lagWanted() {
    this.lagWanted.run();
  }

  /** The lag of {@code partition} of {@code store} on this instance, if it holds a replica. */
  public Optional<PartitionLag> lag(String store, int partition) {
    PartitionProgress progress = this.partitions.get(new StorePartition(store, partition));
    return Optional.ofNullable(progress).map(PartitionProgress::snapshot);
  }

  /** Every tracked partition on this instance, by store and partition. */
  public List<PartitionLag> snapshot() {
    return this.partitions.values().stream()
        .map(PartitionProgress::snapshot)
        .sorted(ORDER)
        .toList();
  }

  /**
   * Tells {@code listener} about every partition tracked from now on and every one dropped;
   * partitions already tracked are in the {@link #snapshot()}.
   */
  public void addListener(Listener listener) {
    this.listeners.add(listener);
  }

  @Override
  public void onRestoreStart(
      TopicPartition changelog, String store, long startingOffset, long endingOffset) {
    track(store, changelog, PartitionLag.Role.ACTIVE, startingOffset, endingOffset);
    if (logger.isDebugEnabled()) {
      logger.debug(
          "Restoring view '%s' partition %d from offset %d to %d"
              .formatted(store, changelog.partition(), startingOffset, endingOffset));
    }
  }

  @Override
  public void onBatchRestored(
      TopicPartition changelog, String store, long batchEndOffset, long numRestored) {
    PartitionProgress progress = applied(store, changelog, batchEndOffset, numRestored);
    if (progress != null
        && logger.isInfoEnabled()
        && progress.logDue(this.nanoTime.getAsLong(), this.progressIntervalNanos)) {
      logger.info(describeProgress(progress.snapshot()));
    }
  }

  @Override
  public void onRestoreEnd(TopicPartition changelog, String store, long totalRestored) {
    PartitionProgress progress = this.partitions.get(key(store, changelog));
    if (progress == null) {
      return;
    }
    progress.finish();
    if (totalRestored > 0 ? logger.isInfoEnabled() : logger.isDebugEnabled()) {
      String message =
          "Restored view '%s' partition %d: %d records, up to date"
              .formatted(store, changelog.partition(), totalRestored);
      if (totalRestored > 0) {
        logger.info(message);
      } else {
        logger.debug(message);
      }
    }
  }

  @Override
  public void onRestoreSuspended(TopicPartition changelog, String store, long totalRestored) {
    if (drop(store, changelog) && logger.isInfoEnabled()) {
      logger.info(
          "Stopped restoring view '%s' partition %d after %d records: it moved to another instance"
              .formatted(store, changelog.partition(), totalRestored));
    }
  }

  /**
   * Starts tracking a standby from {@code startingOffset}; the changelog's end is not known until
   * the first loaded batch or lag report ({@link #reported}), so its lag is unknown until then, and
   * a lag report is asked for at once.
   */
  @Override
  public void onUpdateStart(TopicPartition changelog, String store, long startingOffset) {
    track(
        store,
        changelog.partition(),
        new PartitionProgress(
            store,
            changelog.partition(),
            PartitionLag.Role.STANDBY,
            startingOffset,
            this.nanoTime.getAsLong()));
    lagWanted();
  }

  /**
   * Takes Kafka Streams' own report of a tracked partition ({@code
   * KafkaStreams#allLocalStorePartitionLags}): {@code position} is the next offset to apply, {@code
   * end} one past the changelog's last offset. A partition not tracked is left alone: the report
   * does not tell its role.
   */
  public void reported(String store, int partition, long position, long end) {
    PartitionProgress progress = this.partitions.get(new StorePartition(store, partition));
    if (progress != null) {
      progress.reported(position, end);
    }
  }

  /** The live progress of {@code partition} of {@code store}, or {@code null}; for lookups. */
  @Nullable PartitionProgress progress(String store, int partition) {
    return this.partitions.get(new StorePartition(store, partition));
  }

  @Override
  public void onBatchLoaded(
      TopicPartition changelog,
      String store,
      TaskId taskId,
      long batchEndOffset,
      long batchSize,
      long currentEndOffset) {
    PartitionProgress progress = applied(store, changelog, batchEndOffset, batchSize);
    if (progress != null) {
      // Kafka Streams passes the last offset in the changelog; keep one past it, like restores.
      progress.endOffset(currentEndOffset + 1);
    }
  }

  @Override
  public void onUpdateSuspended(
      TopicPartition changelog,
      String store,
      long storeOffset,
      long currentEndOffset,
      SuspendReason reason) {
    drop(store, changelog);
  }

  private void track(
      String store,
      TopicPartition changelog,
      PartitionLag.Role role,
      long startOffset,
      long endOffset) {
    track(
        store,
        changelog.partition(),
        new PartitionProgress(
            store, changelog.partition(), role, startOffset, endOffset, this.nanoTime.getAsLong()));
  }

  private void track(String store, int partition, PartitionProgress progress) {
    PartitionProgress previous =
        this.partitions.put(new StorePartition(store, partition), progress);
    if (previous != null) {
      PartitionLag replaced = previous.snapshot();
      this.listeners.forEach((listener) -> listener.dropped(replaced));
    }
    PartitionLag tracked = progress.snapshot();
    this.listeners.forEach((listener) -> listener.tracked(tracked));
  }

  private boolean drop(String store, TopicPartition changelog) {
    return drop(key(store, changelog));
  }

  private boolean drop(StorePartition partition) {
    PartitionProgress dropped = this.partitions.remove(partition);
    if (dropped == null) {
      return false;
    }
    PartitionLag last = dropped.snapshot();
    this.listeners.forEach((listener) -> listener.dropped(last));
    return true;
  }

  private @Nullable PartitionProgress applied(
      String store, TopicPartition changelog, long batchEndOffset, long records) {
    PartitionProgress progress = this.partitions.get(key(store, changelog));
    if (progress != null) {
      progress.applied(batchEndOffset + 1, records, this.nanoTime.getAsLong());
    }
    return progress;
  }

  private static StorePartition key(String store, TopicPartition changelog) {
    return new StorePartition(store, changelog.partition());
  }

  static String describeProgress(PartitionLag lag) {
    long total = lag.endOffset() - lag.startOffset();
    long done = lag.currentOffset() - lag.startOffset();
    long percent = total > 0 ? done * 100 / total : 100;
    Duration eta = lag.eta();
    return "Restoring view '%s' partition %d: %d%% (%d of %d offsets), %d records/s, %s"
        .formatted(
            lag.store(),
            lag.partition(),
            percent,
            done,
            total,
            Math.round(lag.recordsPerSecond()),
            eta != null ? "about " + seconds(eta) + "s left" : "time left unknown");
  }

  private static long seconds(Duration duration) {
    return (duration.toMillis() + 999) / 1000;
  }

  private record StorePartition(String store, int partition) {}

  /** Told when a partition starts or stops being tracked, on the thread that restores it. */
  public interface Listener {

    /** {@code partition} is now tracked, in the role it has. */
    void tracked(PartitionLag partition);

    /** {@code partition} is no longer tracked in that role: it moved away or changed role. */
    void dropped(PartitionLag partition);
  }
}
