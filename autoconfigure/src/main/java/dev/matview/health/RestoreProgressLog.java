package dev.matview.health;

import java.time.Duration;
import java.util.function.LongSupplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Logs the restores of active store partitions (start at DEBUG, progress every interval and the end
 * at INFO) under the name of {@link RestoreLagTracker}, the logger users already configure.
 */
final class RestoreProgressLog {

  private static final Log logger = LogFactory.getLog(RestoreLagTracker.class);

  private final LongSupplier nanoTime;

  private final long intervalNanos;

  /** A log that reads time from {@code nanoTime} and logs a partition's progress every interval. */
  RestoreProgressLog(LongSupplier nanoTime, Duration interval) {
    this.nanoTime = nanoTime;
    this.intervalNanos = interval.toNanos();
  }

  /** The restore of {@code partition} of {@code store} starts at one offset, to end at another. */
  void started(String store, int partition, long startingOffset, long endingOffset) {
    if (logger.isDebugEnabled()) {
      logger.debug(
          "Restoring view '%s' partition %d from offset %d to %d"
              .formatted(store, partition, startingOffset, endingOffset));
    }
  }

  /** A batch of the restore that {@code progress} follows was applied. */
  void restored(PartitionProgress progress) {
    if (logger.isInfoEnabled() && progress.logDue(this.nanoTime.getAsLong(), this.intervalNanos)) {
      logger.info(describe(progress.snapshot()));
    }
  }

  /** The restore of {@code partition} of {@code store} ended, up to date. */
  void ended(String store, int partition, long totalRestored) {
    if (totalRestored > 0 ? logger.isInfoEnabled() : logger.isDebugEnabled()) {
      String message =
          "Restored view '%s' partition %d: %d records, up to date"
              .formatted(store, partition, totalRestored);
      if (totalRestored > 0) {
        logger.info(message);
      } else {
        logger.debug(message);
      }
    }
  }

  /** The restore of {@code partition} of {@code store} stopped: it moved to another instance. */
  void suspended(String store, int partition, long totalRestored) {
    if (logger.isInfoEnabled()) {
      logger.info(
          "Stopped restoring view '%s' partition %d after %d records: it moved to another instance"
              .formatted(store, partition, totalRestored));
    }
  }

  /** One line on how far a restore has come, how fast it goes and how long it has left. */
  static String describe(PartitionLag lag) {
    long total = lag.endOffset() - lag.startOffset();
    long done = lag.currentOffset() - lag.startOffset();
    long percent = total > 0 ? done * 100 / total : 100;
    Long eta = lag.etaSeconds();
    return "Restoring view '%s' partition %d: %d%% (%d of %d offsets), %d records/s, %s"
        .formatted(
            lag.store(),
            lag.partition(),
            percent,
            done,
            total,
            Math.round(lag.recordsPerSecond()),
            eta != null ? "about " + eta + "s left" : "time left unknown");
  }
}
