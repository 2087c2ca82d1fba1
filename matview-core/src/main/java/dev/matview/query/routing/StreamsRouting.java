package dev.matview.query.routing;

import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Placement;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.ViewUnavailableException;
import dev.matview.topology.ResolvedView;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;

/**
 * Routing by the {@link ReplicaDirectory}, which Kafka Streams' own metadata fills: a lookup
 * serializes the key, computes its partition once and reads the directory's snapshot, with no call
 * to the broker, to another instance or to Kafka Streams' metadata.
 */
public final class StreamsRouting implements Routing {

  private static final Log logger = LogFactory.getLog(StreamsRouting.class);

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
    Placement placement = placeKey(view, key);
    if (placement instanceof Refusal refusal) {
      throw refusal.toException();
    }
    return (KeyReplicas) placement;
  }

  @Override
  public <K> Placement placeKey(ResolvedView<K, ?, ?> view, K key) {
    Refusal notRunning = notRunning(view, key);
    if (notRunning != null) {
      return notRunning;
    }
    ViewReplicas replicas = this.directory.replicas(view.storeName());
    if (replicas == null) {
      return new Refusal(
          Refusal.Reason.OWNER_UNKNOWN,
          view.name(),
          key,
          null,
          "The owner of this key's partition is not known while the instances rebalance",
          Refusal.REBALANCE_RETRY);
    }
    byte[] keyBytes;
    try {
      keyBytes = view.keySerde().serializer().serialize(replicas.inputTopic(), key);
    } catch (KafkaException ex) {
      logger.warn("Key '" + key + "' of view '" + view.name() + "' cannot be serialized", ex);
      return new Refusal(
          Refusal.Reason.FAILED,
          view.name(),
          key,
          null,
          "This key cannot be serialized with the key serde of view '"
              + view.name()
              + "', so its partition is not known ("
              + ex.getClass().getSimpleName()
              + ", logged by this instance)",
          Refusal.REBALANCE_RETRY);
    }
    KeyReplicas found = replicas.replicas(replicas.partitionOf(keyBytes));
    if (found == null) {
      throw new IllegalStateException(
          "A complete directory of view '" + view.name() + "' lacks a partition");
    }
    return found;
  }

  @Override
  public List<PartitionOwner> owners(ResolvedView<?, ?, ?> view) {
    Refusal notRunning = notRunning(view, null);
    if (notRunning != null) {
      throw notRunning.toException();
    }
    ViewReplicas replicas = this.directory.replicas(view.storeName());
    if (replicas == null) {
      throw new ViewUnavailableException(
          view.name(),
          null,
          null,
          "Not every partition of view '"
              + view.name()
              + "' has a known owner while the instances rebalance",
          Refusal.REBALANCE_RETRY);
    }
    return replicas.owners();
  }

  @Override
  public KeyReplicas replicasOf(ResolvedView<?, ?, ?> view, PartitionOwner owner) {
    ViewReplicas replicas = this.directory.replicas(view.storeName());
    KeyReplicas found = (replicas != null) ? replicas.replicas(owner.partition()) : null;
    return (found != null && found.active().equals(owner))
        ? found
        : new KeyReplicas(owner, List.of());
  }

  @Override
  public boolean isLocal(PartitionOwner owner) {
    return Objects.equals(owner.host(), this.localInstance.hostInfo());
  }

  /** The instances the directory names or remembers, never this instance. */
  @Override
  public Collection<HostInfo> otherInstances() {
    Collection<HostInfo> known = this.directory.instances();
    HostInfo self = this.localInstance.hostInfo();
    if (self == null || !known.contains(self)) {
      return known;
    }
    return known.stream().filter((host) -> !host.equals(self)).toList();
  }

  /** A refusal when Kafka Streams is neither running nor rebalancing, else {@code null}. */
  private @Nullable Refusal notRunning(ResolvedView<?, ?, ?> view, @Nullable Object key) {
    KafkaStreams.State state = this.directory.state();
    if (state != null && state.isRunningOrRebalancing()) {
      return null;
    }
    return new Refusal(
        Refusal.Reason.NOT_RUNNING,
        view.name(),
        key,
        null,
        "Kafka Streams is "
            + (state != null ? state : "not started")
            + "; view '"
            + view.name()
            + "' cannot be queried until it is running",
        Refusal.REBALANCE_RETRY);
  }
}
