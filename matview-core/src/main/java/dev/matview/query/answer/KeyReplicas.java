package dev.matview.query.answer;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The replicas of the partition that holds a key.
 *
 * @param active the partition and the instance holding its active replica
 * @param standbys the same partition on the instances holding a standby replica
 * @param previousActive while the instances rebalance, the instance that held the active replica in
 *     the last complete assignment before this one, when it is another and holds no standby now;
 *     else {@code null}
 */
public record KeyReplicas(
    PartitionOwner active, List<PartitionOwner> standbys, @Nullable PartitionOwner previousActive)
    implements Placement {

  /** The replicas of a partition with no previous owner to ask. */
  public KeyReplicas(PartitionOwner active, List<PartitionOwner> standbys) {
    this(active, standbys, null);
  }

  /** The partition. */
  public int partition() {
    return this.active.partition();
  }
}
