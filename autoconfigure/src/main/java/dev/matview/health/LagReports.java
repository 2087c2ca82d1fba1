package dev.matview.health;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.LagInfo;
import org.jspecify.annotations.Nullable;

/**
 * Feeds Kafka Streams' own lag reports (one offsets request to the broker) into the {@link
 * RestoreLagTracker} every period, and at once when a lag is wanted and not known, off any lookup's
 * path: a standby learns its changelog's end without a new batch, and a running active replica's
 * offsets stay live.
 */
public final class LagReports extends ScheduledLifecycle {

  private static final Log logger = LogFactory.getLog(LagReports.class);

  private final Supplier<@Nullable KafkaStreams> streams;

  private final RestoreLagTracker tracker;

  private final long minimumGapNanos;

  private final AtomicBoolean pending = new AtomicBoolean();

  private volatile long lastAsked;

  /** Reports into {@code tracker} every {@code period}, and if wanted every {@code minimumGap}. */
  public LagReports(
      Supplier<@Nullable KafkaStreams> streams,
      RestoreLagTracker tracker,
      Duration period,
      Duration minimumGap,
      ScheduledExecutorService timer,
      Executor polls) {
    super(timer, polls, period, period);
    this.streams = streams;
    this.tracker = tracker;
    this.minimumGapNanos = minimumGap.toNanos();
    this.lastAsked = System.nanoTime() - this.minimumGapNanos;
    tracker.whenLagWanted(this::soon);
  }

  /**
   * Asks for a report soon, unless one is pending or the last was asked within the minimum gap, so
   * lookups that meet an unknown lag cost at most one broker request per gap.
   */
  void soon() {
    long now = System.nanoTime();
    if (now - this.lastAsked >= this.minimumGapNanos && this.pending.compareAndSet(false, true)) {
      this.lastAsked = now;
      runSoon();
    }
  }

  /** Asks Kafka Streams for the lag of every local store partition and tells the tracker. */
  public void refresh() {
    KafkaStreams current = this.streams.get();
    if (current == null || !current.state().isRunningOrRebalancing()) {
      return;
    }
    Map<String, Map<Integer, LagInfo>> lags;
    try {
      lags = current.allLocalStorePartitionLags();
    } catch (KafkaException | IllegalStateException ex) {
      if (logger.isDebugEnabled()) {
        logger.debug("Kafka Streams could not report the lag of its store partitions", ex);
      }
      return;
    }
    lags.forEach(
        (store, partitions) ->
            partitions.forEach(
                (partition, lag) ->
                    this.tracker.reported(
                        store, partition, lag.currentOffsetPosition(), lag.endOffsetPosition())));
  }

  @Override
  void tick() {
    this.pending.set(false);
    try {
      refresh();
    } catch (RuntimeException ex) {
      logger.warn("Could not read Kafka Streams' lag reports", ex);
    }
  }
}
