package dev.matview.query.local;

import dev.matview.query.answer.Replica;
import dev.matview.query.answer.ViewUnavailableException;
import dev.matview.topology.ResolvedView;
import java.time.Duration;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.jspecify.annotations.Nullable;

/**
 * Tells why this instance's replica of a partition cannot answer: Kafka Streams is not running, the
 * replica restores or catches up (with its progress and when to retry), or it is not here.
 */
final class LocalRefusals {

  private static final Duration RETRY = Duration.ofSeconds(1);

  private final Supplier<@Nullable KafkaStreams> streams;

  private final LocalReplicas replicas;

  LocalRefusals(Supplier<@Nullable KafkaStreams> streams, LocalReplicas replicas) {
    this.streams = streams;
    this.replicas = replicas;
  }

  /** Refuses with 503 while this instance's replica of the partition restores or catches up. */
  void requireCaughtUp(ResolvedView<?, ?, ?> view, @Nullable Object key, int partition) {
    ViewUnavailableException lagging = lagging(view, key, partition);
    if (lagging != null) {
      throw lagging;
    }
  }

  /** The refusal of a local replica that still restores or catches up, with its progress. */
  private @Nullable ViewUnavailableException lagging(
      ResolvedView<?, ?, ?> view, @Nullable Object key, int partition) {
    LocalReplicas.State state = this.replicas.state(view.storeName(), partition);
    if (state == null || state.lag() <= 0) {
      return null;
    }
    Duration eta = state.eta();
    return new ViewUnavailableException(
        view.name(),
        key,
        partition,
        "Partition "
            + partition
            + " of view '"
            + view.name()
            + "' is "
            + (state.role() == Replica.Role.ACTIVE ? "restoring" : "catching up")
            + " from its changelog: "
            + (!state.lagKnown()
                ? "how far it is behind is not known yet"
                : state.lag() + " of " + state.endOffset() + " offsets to go")
            + (eta != null ? ", about " + Math.max(1, eta.toSeconds()) + " s left" : ""),
        eta != null ? clamp(eta) : RETRY);
  }

  private static Duration clamp(Duration eta) {
    Duration atLeast = eta.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : eta;
    return atLeast.compareTo(Duration.ofSeconds(60)) > 0 ? Duration.ofSeconds(60) : atLeast;
  }

  ViewUnavailableException notServing(
      ResolvedView<?, ?, ?> view,
      @Nullable Object key,
      int partition,
      InvalidStateStoreException ex) {
    return unavailable(
        view,
        key,
        partition,
        "its replica here is still restoring, being assigned or not here ("
            + ex.getMessage()
            + ")");
  }

  KafkaStreams running(ResolvedView<?, ?, ?> view, @Nullable Object key, int partition) {
    KafkaStreams kafkaStreams = this.streams.get();
    if (kafkaStreams == null || !kafkaStreams.state().isRunningOrRebalancing()) {
      throw unavailable(view, key, partition, "Kafka Streams is not running");
    }
    return kafkaStreams;
  }

  /** A refusal that tells the restore progress when the local replica is known to lag. */
  ViewUnavailableException unavailable(
      ResolvedView<?, ?, ?> view, @Nullable Object key, int partition, @Nullable String reason) {
    ViewUnavailableException lagging = lagging(view, key, partition);
    if (lagging != null) {
      return lagging;
    }
    return new ViewUnavailableException(
        view.name(),
        key,
        partition,
        "Partition " + partition + " of view '" + view.name() + "' cannot answer now: " + reason,
        RETRY);
  }
}
