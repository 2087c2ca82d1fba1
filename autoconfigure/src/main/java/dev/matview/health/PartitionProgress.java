package dev.matview.health;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The progress of one store partition through its changelog, updated in constant time per batch,
 * its rate over windows of about a second; its offsets are read without a lock, as they only move
 * forward.
 */
final class PartitionProgress {

  static final long RATE_WINDOW_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final String store;

  private final int partition;

  private final PartitionLag.Role role;

  private final long startOffset;

  private final AtomicLong currentOffset;

  private final AtomicLong endOffset;

  private volatile boolean endKnown;

  private volatile boolean finished;

  private long records;

  private long markNanos;

  private long markOffset;

  private long markRecords;

  private boolean windowCompleted;

  private volatile double offsetsPerSecond;

  private double recordsPerSecond;

  private long loggedNanos;

  private boolean logged;

  /** Progress from {@code startOffset} to {@code endOffset}, both known. */
  PartitionProgress(
      String store,
      int partition,
      PartitionLag.Role role,
      long startOffset,
      long endOffset,
      long nanos) {
    this(store, partition, role, startOffset, nanos);
    this.endOffset.set(Math.max(startOffset, endOffset));
    this.endKnown = true;
  }

  /** Progress from {@code startOffset} towards an end not known yet. */
  PartitionProgress(
      String store, int partition, PartitionLag.Role role, long startOffset, long nanos) {
    this.store = store;
    this.partition = partition;
    this.role = role;
    this.startOffset = startOffset;
    this.currentOffset = new AtomicLong(startOffset);
    this.endOffset = new AtomicLong(startOffset);
    this.markNanos = nanos;
    this.markOffset = startOffset;
  }

  PartitionLag.Role role() {
    return this.role;
  }

  /** Records a batch applied up to {@code position}, the next offset to apply. */
  synchronized void applied(long position, long batchRecords, long nanos) {
    long current = this.currentOffset.accumulateAndGet(position, Math::max);
    this.endOffset.accumulateAndGet(current, Math::max);
    this.records += batchRecords;
    long elapsed = nanos - this.markNanos;
    if (elapsed <= 0) {
      return;
    }
    if (!this.windowCompleted || elapsed >= RATE_WINDOW_NANOS) {
      this.offsetsPerSecond = (current - this.markOffset) * 1e9 / elapsed;
      this.recordsPerSecond = (this.records - this.markRecords) * 1e9 / elapsed;
    }
    if (elapsed >= RATE_WINDOW_NANOS) {
      this.markNanos = nanos;
      this.markOffset = current;
      this.markRecords = this.records;
      this.windowCompleted = true;
    }
  }

  /** Moves the known end of the changelog, as a standby learns it with each batch. */
  void endOffset(long endOffset) {
    this.endOffset.accumulateAndGet(Math.max(endOffset, this.currentOffset.get()), Math::max);
    this.endKnown = true;
  }

  /** Takes Kafka Streams' report of the next offset to apply and the end. */
  void reported(long position, long end) {
    long current = this.currentOffset.accumulateAndGet(position, Math::max);
    endOffset(Math.max(end, current));
  }

  /** Marks an active partition as restored: Kafka Streams found no more records to apply. */
  void finish() {
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

  /** Changelog offsets still to apply, or {@link PartitionLag#UNKNOWN}; read without a lock. */
  long lag() {
    if (this.finished) {
      return 0;
    }
    if (!this.endKnown) {
      return PartitionLag.UNKNOWN;
    }
    return Math.max(0, this.endOffset.get() - this.currentOffset.get());
  }

  /** One past the last changelog offset known, or {@link PartitionLag#UNKNOWN}. */
  long endOffset() {
    return this.endKnown ? this.endOffset.get() : PartitionLag.UNKNOWN;
  }

  /** The estimated time until caught up, or {@code null} while unknown; read without a lock. */
  @Nullable Duration eta() {
    long lag = lag();
    return lag == PartitionLag.UNKNOWN ? null : eta(lag, this.offsetsPerSecond);
  }

  synchronized PartitionLag snapshot() {
    long lag = lag();
    return new PartitionLag(
        this.store,
        this.partition,
        this.role,
        this.startOffset,
        this.currentOffset.get(),
        endOffset(),
        lag,
        this.records,
        this.recordsPerSecond,
        lag == PartitionLag.UNKNOWN ? null : eta(lag, this.offsetsPerSecond));
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
