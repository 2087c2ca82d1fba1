package dev.matview.health;

import java.util.List;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;
import org.jspecify.annotations.Nullable;

/**
 * Judges whether this instance's views can be served, from Kafka Streams' state and the tracked
 * restore lags alone, so that asking costs no broker call.
 */
public final class StreamsHealth {

  private final Supplier<KafkaStreams.@Nullable State> state;

  private final RestoreLagTracker tracker;

  private final long maxRestoreLag;

  /** Judges {@code state} (null before it starts) and {@code tracker}'s active partitions' lag. */
  public StreamsHealth(
      Supplier<KafkaStreams.@Nullable State> state, RestoreLagTracker tracker, long maxRestoreLag) {
    if (maxRestoreLag < 0) {
      throw new IllegalArgumentException("maxRestoreLag must be at least 0: " + maxRestoreLag);
    }
    this.state = state;
    this.tracker = tracker;
    this.maxRestoreLag = maxRestoreLag;
  }

  /** The most offsets an active partition may lag for its views to be served. */
  public long maxRestoreLag() {
    return this.maxRestoreLag;
  }

  /** Judges Kafka Streams' current state and every tracked partition. */
  public Report report() {
    KafkaStreams.State current = this.state.get();
    List<PartitionLag> partitions = this.tracker.snapshot();
    if (current == null) {
      return new Report(Condition.NOT_SERVING, null, "Kafka Streams has not started", partitions);
    }
    return switch (current) {
      case CREATED -> notServing(current, "Kafka Streams is starting", partitions);
      case REBALANCING -> notServing(current, "Kafka Streams is rebalancing", partitions);
      case RUNNING -> running(partitions);
      case PENDING_SHUTDOWN -> notServing(current, "Kafka Streams is shutting down", partitions);
      case NOT_RUNNING ->
          new Report(Condition.FAILED, current, "Kafka Streams is not running", partitions);
      case PENDING_ERROR, ERROR ->
          new Report(Condition.FAILED, current, "Kafka Streams has failed", partitions);
    };
  }

  private Report running(List<PartitionLag> partitions) {
    PartitionLag behind = null;
    int count = 0;
    for (PartitionLag partition : partitions) {
      if (partition.isActive() && partition.lag() > this.maxRestoreLag) {
        behind = (behind != null) ? behind : partition;
        count++;
      }
    }
    if (behind == null) {
      return new Report(Condition.SERVING, KafkaStreams.State.RUNNING, null, partitions);
    }
    String reason =
        "View '%s' partition %d is restoring, %d offsets behind (at most %d allowed)"
            .formatted(behind.store(), behind.partition(), behind.lag(), this.maxRestoreLag);
    if (count > 1) {
      reason += ", and %d more partitions".formatted(count - 1);
    }
    return new Report(Condition.NOT_SERVING, KafkaStreams.State.RUNNING, reason, partitions);
  }

  private static Report notServing(
      KafkaStreams.State state, String reason, List<PartitionLag> partitions) {
    return new Report(Condition.NOT_SERVING, state, reason, partitions);
  }

  /** Whether views can be served. */
  public enum Condition {
    /** Kafka Streams runs and no active partition lags beyond the bound. */
    SERVING,
    /** Kafka Streams is starting, rebalancing, restoring or shutting down; nothing has failed. */
    NOT_SERVING,
    /** Kafka Streams has failed or stopped. */
    FAILED
  }

  /** The judgement ({@code reason} null when views can be served) and what it was made from. */
  public record Report(
      Condition condition,
      KafkaStreams.@Nullable State state,
      @Nullable String reason,
      List<PartitionLag> partitions) {}
}
