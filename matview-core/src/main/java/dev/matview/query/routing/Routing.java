package dev.matview.query.routing;

import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Placement;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.ViewUnavailableException;
import dev.matview.topology.ResolvedView;
import java.util.Collection;
import java.util.List;
import org.apache.kafka.streams.state.HostInfo;

/** Says which partition holds a key and which instance owns each partition of a view's store. */
public interface Routing {

  /**
   * The partition of {@code key} and its owner; a {@link ViewUnavailableException} while unknown.
   */
  <K> PartitionOwner ownerOfKey(ResolvedView<K, ?, ?> view, K key);

  /**
   * The partition of {@code key} and its replicas; a {@link ViewUnavailableException} while
   * unknown.
   */
  <K> KeyReplicas replicasOfKey(ResolvedView<K, ?, ?> view, K key);

  /** The replicas of the partition of {@code key}, or a refusal saying why they are not known. */
  default <K> Placement placeKey(ResolvedView<K, ?, ?> view, K key) {
    try {
      return replicasOfKey(view, key);
    } catch (ViewUnavailableException ex) {
      return Refusal.of(ex);
    }
  }

  /**
   * Every partition of the view in order, with its owner, or a {@link ViewUnavailableException}.
   */
  List<PartitionOwner> owners(ResolvedView<?, ?, ?> view);

  /**
   * The replicas of {@code owner}'s partition, {@code owner} its active one; by default no others.
   */
  default KeyReplicas replicasOf(ResolvedView<?, ?, ?> view, PartitionOwner owner) {
    return new KeyReplicas(owner, List.of());
  }

  /** Whether {@code owner} is this instance. */
  boolean isLocal(PartitionOwner owner);

  /** The other instances, which may route a lookup this instance cannot place; none by default. */
  default Collection<HostInfo> otherInstances() {
    return List.of();
  }
}
