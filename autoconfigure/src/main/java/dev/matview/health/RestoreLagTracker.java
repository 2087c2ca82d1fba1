package dev.matview.health;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.processor.TaskId;
import org.jspecify.annotations.Nullable;

/**
 * Tracks how far each local store partition's restore or standby update is behind the changelog,
 * from Kafka Streams' callbacks and lag reports ({@code PartitionLags}), and logs restores ({@code
 * RestoreProgressLog}).
 *
 * <p>Lag is counted from the callbacks' own offsets, never from Kafka's remaining-records metric,
 * which does not reach zero on compacted changelogs with transaction markers.
 */
public final class RestoreLagTracker implements StateRestoreListener, StandbyUpdateListener {

  /** How often the progress of one restoring partition is logged, after its first batch. */
  public static final Duration DEFAULT_PROGRESS_INTERVAL = Duration.ofSeconds(5);

  private final PartitionLags partitions = new PartitionLags();

  private final LongSupplier nanoTime;

  private final RestoreProgressLog progressLog;

  private volatile Runnable lagWanted = () -> {};

  /** A tracker on the system's clock that logs progress every five seconds per partition. */
  public RestoreLagTracker() {
    this(System::nanoTime, DEFAULT_PROGRESS_INTERVAL);
  }

  /** A tracker that reads time from {@code nanoTime} and logs progress every {@code interval}. */
  public RestoreLagTracker(LongSupplier nanoTime, Duration progressInterval) {
    this.nanoTime = nanoTime;
    this.progressLog = new RestoreProgressLog(nanoTime, progressInterval);
  }

  /** Calls {@code asker} when a replica's lag is wanted and not known ({@link LagReports}). */
  public void whenLagWanted(Runnable asker) {
    this.lagWanted = asker;
  }

  /**
   * Forgets {@code partition} of {@code store}, which Kafka Streams has just opened anew (its state
   * may have been wiped), so no stale read trusts a lag of the store before.
   */
  public void storeOpened(String store, int partition) {
    this.partitions.drop(store, partition);
  }

  /** Says that the lag of a replica is wanted and not known. */
  void lagWanted() {
    this.lagWanted.run();
  }

  /** The lag of {@code partition} of {@code store} on this instance, if it holds a replica. */
  public Optional<PartitionLag> lag(String store, int partition) {
    return this.partitions.lag(store, partition);
  }

  /** Every tracked partition on this instance, by store and partition. */
  public List<PartitionLag> snapshot() {
    return this.partitions.snapshot();
  }

  /** Tells {@code listener} of every partition tracked or dropped from now on. */
  public void addListener(Listener listener) {
    this.partitions.addListener(listener);
  }

  /**
   * Takes Kafka Streams' own report of a tracked partition: {@code position} the next offset to
   * apply, {@code end} one past the last; an untracked one is left alone, the report not telling
   * its role.
   */
  public void reported(String store, int partition, long position, long end) {
    PartitionProgress progress = this.partitions.progress(store, partition);
    if (progress != null) {
      progress.reported(position, end);
    }
  }

  /** The live progress of {@code partition} of {@code store}, or {@code null}; for lookups. */
  @Nullable PartitionProgress progress(String store, int partition) {
    return this.partitions.progress(store, partition);
  }

  @Override
  public void onRestoreStart(
      TopicPartition changelog, String store, long startingOffset, long endingOffset) {
    int partition = changelog.partition();
    this.partitions.track(
        store,
        partition,
        new PartitionProgress(
            store,
            partition,
            PartitionLag.Role.ACTIVE,
            startingOffset,
            endingOffset,
            this.nanoTime.getAsLong()));
    this.progressLog.started(store, partition, startingOffset, endingOffset);
  }

  @Override
  public void onBatchRestored(
      TopicPartition changelog, String store, long batchEndOffset, long numRestored) {
    PartitionProgress progress = applied(store, changelog, batchEndOffset, numRestored);
    if (progress != null) {
      this.progressLog.restored(progress);
    }
  }

  @Override
  public void onRestoreEnd(TopicPartition changelog, String store, long totalRestored) {
    PartitionProgress progress = this.partitions.progress(store, changelog.partition());
    if (progress != null) {
      progress.finish();
      this.progressLog.ended(store, changelog.partition(), totalRestored);
    }
  }

  @Override
  public void onRestoreSuspended(TopicPartition changelog, String store, long totalRestored) {
    if (this.partitions.drop(store, changelog.partition())) {
      this.progressLog.suspended(store, changelog.partition(), totalRestored);
    }
  }

  /** Tracks a standby, its lag unknown until its end is, and asks for a lag report. */
  @Override
  public void onUpdateStart(TopicPartition changelog, String store, long startingOffset) {
    int partition = changelog.partition();
    this.partitions.track(
        store,
        partition,
        new PartitionProgress(
            store,
            partition,
            PartitionLag.Role.STANDBY,
            startingOffset,
            this.nanoTime.getAsLong()));
    lagWanted();
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
    this.partitions.drop(store, changelog.partition());
  }

  private @Nullable PartitionProgress applied(
      String store, TopicPartition changelog, long batchEndOffset, long records) {
    PartitionProgress progress = this.partitions.progress(store, changelog.partition());
    if (progress != null) {
      progress.applied(batchEndOffset + 1, records, this.nanoTime.getAsLong());
    }
    return progress;
  }

  /** Told when a partition starts or stops being tracked, on the thread that restores it. */
  public interface Listener {

    /** {@code partition} is now tracked, in the role it has. */
    void tracked(PartitionLag partition);

    /** {@code partition} is no longer tracked in that role: it moved away or changed role. */
    void dropped(PartitionLag partition);
  }
}
