package dev.matview.query.routing;

import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.answer.PartitionOwner;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;

/** The hosts that hold partitions of one topic, in arrays indexed by partition. */
final class ReplicaPlacements {

  private @Nullable HostInfo[] actives = new HostInfo[0];

  private HostInfo[] @Nullable [] standbys = new HostInfo[0][];

  /** As Kafka Streams counts them: the partitions with an active replica. */
  private int partitions;

  void active(int partition, HostInfo host) {
    if (partition >= 0) {
      this.actives = fit(this.actives, partition);
      if (this.actives[partition] == null) {
        this.partitions++;
      }
      this.actives[partition] = host;
    }
  }

  void standby(int partition, HostInfo host) {
    if (partition >= 0) {
      this.standbys = fit(this.standbys, partition);
      HostInfo @Nullable [] held = this.standbys[partition];
      HostInfo[] more = (held != null) ? Arrays.copyOf(held, held.length + 1) : new HostInfo[1];
      more[more.length - 1] = host;
      this.standbys[partition] = more;
    }
  }

  /**
   * The replicas of {@code topic}, with previous owners from {@code previous}; {@code actives} has
   * a slot for each partition counted.
   */
  ViewReplicas replicas(String topic, @Nullable ViewReplicas previous) {
    @Nullable KeyReplicas[] replicas = new KeyReplicas[this.partitions];
    for (int partition = 0; partition < this.partitions; partition++) {
      HostInfo host = this.actives[partition];
      if (host != null && host.port() >= 0) {
        HostInfo @Nullable [] standbys =
            (partition < this.standbys.length) ? this.standbys[partition] : null;
        List<PartitionOwner> standbyOwners = standbyOwners(partition, host, standbys);
        replicas[partition] =
            new KeyReplicas(
                new PartitionOwner(partition, host),
                standbyOwners,
                previousOwner(previous, this.partitions, partition, host, standbyOwners));
      }
    }
    return new ViewReplicas(topic, this.partitions, replicas);
  }

  private static @Nullable PartitionOwner previousOwner(
      @Nullable ViewReplicas previous,
      int partitions,
      int partition,
      HostInfo active,
      List<PartitionOwner> standbys) {
    KeyReplicas before =
        (previous != null && previous.partitions() == partitions)
            ? previous.replicas(partition)
            : null;
    if (before == null
        || before.active().host().equals(active)
        || standbys.contains(before.active())) {
      return null;
    }
    return before.active();
  }

  /** {@code array}, or a copy at least twice as long, with a slot at {@code index}. */
  private static <T> T[] fit(T[] array, int index) {
    return (index < array.length)
        ? array
        : Arrays.copyOf(array, Math.max(index + 1, array.length * 2));
  }

  private static List<PartitionOwner> standbyOwners(
      int partition, HostInfo active, HostInfo @Nullable [] hosts) {
    if (hosts == null) {
      return List.of();
    }
    PartitionOwner[] owners = new PartitionOwner[hosts.length];
    int count = 0;
    for (HostInfo standby : hosts) {
      if (standby.port() >= 0 && !standby.equals(active)) {
        owners[count++] = new PartitionOwner(partition, standby);
      }
    }
    return switch (count) {
      case 0 -> List.of();
      case 1 -> List.of(owners[0]);
      default -> List.of(Arrays.copyOf(owners, count));
    };
  }
}
