package dev.matview.query;

import dev.matview.topology.ResolvedView;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.streams.KafkaStreams;
import org.jspecify.annotations.Nullable;

/**
 * Routing by the {@link ReplicaDirectory}, which Kafka Streams' own metadata fills: a lookup
 * serializes the key, computes its partition once and reads the directory's snapshot, with no call
 * to the broker, to another instance or to Kafka Streams' metadata.
 */
public final class StreamsRouting implements Routing {

  static final Duration REBALANCE_RETRY = Duration.ofSeconds(1);

  private final ReplicaDirectory directory;

  private final LocalInstance localInstance;

  /** Routing by {@code directory} for this instance, {@code localInstance}. */
  public StreamsRouting(ReplicaDirectory directory, LocalInstance localInstance) {
    this.directory = directory;
    this.localInstance = localInstance;
  }

  @Override
  public <K> PartitionOwner ownerOfKey(ResolvedView<K, ?, ?> view, K key) {
    return replicasOfKey(view, key).active();
  }

  @Override
  public <K> KeyReplicas replicasOfKey(ResolvedView<K, ?, ?> view, K key) {
    ViewReplicas replicas = running(view, key);
    if (replicas == null) {
      throw new ViewUnavailableException(
          view.name(),
          key,
          null,
          "The owner of this key's partition is not known while the instances rebalance",
          REBALANCE_RETRY);
    }
    byte[] keyBytes = view.keySerde().serializer().serialize(replicas.inputTopic(), key);
    KeyReplicas found = replicas.replicas(replicas.partitionOf(keyBytes));
    if (found == null) {
      throw new IllegalStateException(
          "A complete directory of view '" + view.name() + "' lacks a partition");
    }
    return found;
  }

  @Override
  public List<PartitionOwner> owners(ResolvedView<?, ?, ?> view) {
    ViewReplicas replicas = running(view, null);
    if (replicas == null) {
      throw new ViewUnavailableException(
          view.name(),
          null,
          null,
          "Not every partition of view '"
              + view.name()
              + "' has a known owner while the instances rebalance",
          REBALANCE_RETRY);
    }
    return replicas.owners();
  }

  @Override
  public boolean isLocal(PartitionOwner owner) {
    return Objects.equals(owner.host(), this.localInstance.hostInfo());
  }

  /**
   * The directory's replicas of {@code view}, or {@code null} while none is complete.
   *
   * @throws ViewUnavailableException when Kafka Streams is neither running nor rebalancing
   */
  private @Nullable ViewReplicas running(ResolvedView<?, ?, ?> view, @Nullable Object key) {
    KafkaStreams.State state = this.directory.state();
    if (state == null || !state.isRunningOrRebalancing()) {
      throw new ViewUnavailableException(
          view.name(),
          key,
          null,
          "Kafka Streams is "
              + (state != null ? state : "not started")
              + "; view '"
              + view.name()
              + "' cannot be queried until it is running",
          REBALANCE_RETRY);
    }
    return this.directory.replicas(view.storeName());
  }
}
