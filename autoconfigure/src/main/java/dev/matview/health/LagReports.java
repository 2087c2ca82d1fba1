package dev.matview.health;

import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.LagInfo;
import org.jspecify.annotations.Nullable;

/**
 * Feeds Kafka Streams' own lag reports ({@link KafkaStreams#allLocalStorePartitionLags()}, one
 * offsets request to the broker) into the {@link RestoreLagTracker} every period, off any lookup's
 * path: a standby learns its changelog's end even when no new batch arrives, and a running active
 * replica's offsets stay live after its restore.
 */
public final class LagReports extends ScheduledLifecycle {

  private static final Log logger = LogFactory.getLog(LagReports.class);

  private final Supplier<@Nullable KafkaStreams> streams;

  private final RestoreLagTracker tracker;

  /** Reports of {@code streams} into {@code tracker}, every {@code period}. */
  public LagReports(
      Supplier<@Nullable KafkaStreams> streams, RestoreLagTracker tracker, Duration period) {
    super("matview-lag-reports", period, period);
    this.streams = streams;
    this.tracker = tracker;
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
    try {
      refresh();
    } catch (RuntimeException ex) {
      logger.warn("Could not read Kafka Streams' lag reports", ex);
    }
  }
}
