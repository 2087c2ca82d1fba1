package dev.matview.query;

import java.util.List;

/**
 * The replicas of the partition that holds a key.
 *
 * @param active the partition and the instance holding its active replica
 * @param standbys the same partition on the instances holding a standby replica
 */
public record KeyReplicas(PartitionOwner active, List<PartitionOwner> standbys) {

  /** The partition. */
  public int partition() {
    return this.active.partition();
  }
}
