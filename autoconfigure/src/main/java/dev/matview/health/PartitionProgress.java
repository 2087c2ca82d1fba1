package dev.matview.health;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The running progress of one store partition through its changelog, updated in constant time per
 * batch; its rate is measured over windows of about a second.
 */
final class PartitionProgress {

  static final long RATE_WINDOW_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final String store;

  private final int partition;

  private final PartitionLag.Role role;

  private final long startOffset;

  private long currentOffset;

  private long endOffset;

  private long records;

  private boolean finished;

  private long markNanos;

  private long markOffset;

  private long markRecords;

  private boolean windowCompleted;

  private double offsetsPerSecond;

  private double recordsPerSecond;

  private long loggedNanos;

  private boolean logged;

  PartitionProgress(
      String store,
      int partition,
      PartitionLag.Role role,
      long startOffset,
      long endOffset,
      long nanos) {
    this.store = store;
    this.partition = partition;
    this.role = role;
    this.startOffset = startOffset;
    this.currentOffset = startOffset;
    this.endOffset = Math.max(startOffset, endOffset);
    this.markNanos = nanos;
    this.markOffset = startOffset;
  }

  PartitionLag.Role role() {
    return this.role;
  }

  /** Records a batch applied up to {@code position}, the next offset to apply. */
  synchronized void applied(long position, long batchRecords, long nanos) {
    this.currentOffset = Math.max(this.currentOffset, position);
    this.endOffset = Math.max(this.endOffset, this.currentOffset);
    this.records += batchRecords;
    long elapsed = nanos - this.markNanos;
    if (elapsed <= 0) {
      return;
    }
    if (!this.windowCompleted || elapsed >= RATE_WINDOW_NANOS) {
      this.offsetsPerSecond = (this.currentOffset - this.markOffset) * 1e9 / elapsed;
      this.recordsPerSecond = (this.records - this.markRecords) * 1e9 / elapsed;
    }
    if (elapsed >= RATE_WINDOW_NANOS) {
      this.markNanos = nanos;
      this.markOffset = this.currentOffset;
      this.markRecords = this.records;
      this.windowCompleted = true;
    }
  }

  /** Moves the known end of the changelog, as a standby learns it with each batch. */
  synchronized void endOffset(long endOffset) {
    this.endOffset = Math.max(endOffset, this.currentOffset);
  }

  /** Marks an active partition as restored: Kafka Streams found no more records to apply. */
  synchronized void finish() {
    this.finished = true;
  }

  /** Whether progress should be logged now: on the first batch, then every {@code interval}. */
  synchronized boolean logDue(long nanos, long intervalNanos) {
    if (this.logged && nanos - this.loggedNanos < intervalNanos) {
      return false;
    }
    this.logged = true;
    this.loggedNanos = nanos;
    return true;
  }

  synchronized long lag() {
    return this.finished ? 0 : this.endOffset - this.currentOffset;
  }

  synchronized PartitionLag snapshot() {
    long lag = lag();
    return new PartitionLag(
        this.store,
        this.partition,
        this.role,
        this.startOffset,
        this.currentOffset,
        this.endOffset,
        lag,
        this.records,
        this.recordsPerSecond,
        eta(lag, this.offsetsPerSecond));
  }

  private static @Nullable Duration eta(long lag, double offsetsPerSecond) {
    if (lag == 0) {
      return Duration.ZERO;
    }
    if (offsetsPerSecond <= 0) {
      return null;
    }
    return Duration.ofMillis((long) Math.ceil(lag * 1000 / offsetsPerSecond));
  }
}
