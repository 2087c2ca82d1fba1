package dev.matview.query;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;

/**
 * Where every partition of one view's store lives at one moment: its active replica and its standby
 * replicas, as the Kafka Streams metadata of every instance names them. Immutable and built whole,
 * so that a lookup reads it without a lock or a copy.
 *
 * <p>The view's partitions are those of the topic that feeds its store (its repartition topic when
 * it is re-keyed). Their number is counted as Kafka Streams counts it for {@code
 * queryMetadataForKey}: the partitions of that topic that have an active replica somewhere.
 */
public final class ViewReplicas {

  private final String inputTopic;

  private final int partitions;

  private final @Nullable KeyReplicas[] replicas;

  private final List<PartitionOwner> owners;

  private ViewReplicas(String inputTopic, int partitions, @Nullable KeyReplicas[] replicas) {
    this.inputTopic = inputTopic;
    this.partitions = partitions;
    this.replicas = replicas;
    List<PartitionOwner> owners = new ArrayList<>(replicas.length);
    for (@Nullable KeyReplicas partition : replicas) {
      if (partition == null) {
        owners = List.of();
        break;
      }
      owners.add(partition.active());
    }
    this.owners = List.copyOf(owners);
  }

  /** The replicas of the partitions of {@code inputTopic} named by {@code metadata}. */
  public static ViewReplicas of(String inputTopic, Collection<StreamsMetadata> metadata) {
    return of(inputTopic, metadata, null);
  }

  /**
   * The replicas of the partitions of {@code inputTopic} named by {@code metadata}, each with the
   * active instance of {@code previous} as its previous owner where that is another instance that
   * holds no standby now.
   */
  public static ViewReplicas of(
      String inputTopic, Collection<StreamsMetadata> metadata, @Nullable ViewReplicas previous) {
    TreeMap<Integer, HostInfo> actives = new TreeMap<>();
    TreeMap<Integer, List<HostInfo>> standbys = new TreeMap<>();
    for (StreamsMetadata instance : metadata) {
      for (TopicPartition partition : instance.topicPartitions()) {
        if (partition.topic().equals(inputTopic)) {
          actives.put(partition.partition(), instance.hostInfo());
        }
      }
      for (TopicPartition partition : instance.standbyTopicPartitions()) {
        if (partition.topic().equals(inputTopic)) {
          standbys
              .computeIfAbsent(partition.partition(), (p) -> new ArrayList<>())
              .add(instance.hostInfo());
        }
      }
    }
    int partitions = actives.size();
    @Nullable KeyReplicas[] replicas = new KeyReplicas[partitions];
    for (Map.Entry<Integer, HostInfo> active : actives.entrySet()) {
      int partition = active.getKey();
      HostInfo host = active.getValue();
      if (partition < partitions && host.port() >= 0) {
        List<PartitionOwner> standbyOwners = new ArrayList<>();
        for (HostInfo standby : standbys.getOrDefault(partition, List.of())) {
          if (standby.port() >= 0 && !standby.equals(host)) {
            standbyOwners.add(new PartitionOwner(partition, standby));
          }
        }
        replicas[partition] =
            new KeyReplicas(
                new PartitionOwner(partition, host),
                List.copyOf(standbyOwners),
                previousOwner(previous, partitions, partition, host, standbyOwners));
      }
    }
    return new ViewReplicas(inputTopic, partitions, replicas);
  }

  private static @Nullable PartitionOwner previousOwner(
      @Nullable ViewReplicas previous,
      int partitions,
      int partition,
      HostInfo active,
      List<PartitionOwner> standbys) {
    KeyReplicas before =
        (previous != null && previous.partitions == partitions)
            ? previous.replicas(partition)
            : null;
    if (before == null
        || before.active().host().equals(active)
        || standbys.contains(before.active())) {
      return null;
    }
    return before.active();
  }

  /** The replicas of a view whose partitions nobody is known to hold. */
  public static ViewReplicas none(String inputTopic) {
    return new ViewReplicas(inputTopic, 0, new KeyReplicas[0]);
  }

  /** The topic that feeds the view's store, whose name its keys are serialized with. */
  public String inputTopic() {
    return this.inputTopic;
  }

  /** The number of partitions. */
  public int partitions() {
    return this.partitions;
  }

  /** Whether every partition has a known active replica, so that any key can be routed. */
  public boolean complete() {
    return this.partitions > 0 && !this.owners.isEmpty();
  }

  /**
   * The partition of a key serialized as {@code keyBytes}, as Kafka's default partitioner places it
   * (which is how Kafka Streams locates a key of a store fed by such a topic); only for a complete
   * view.
   */
  public int partitionOf(byte[] keyBytes) {
    return Utils.toPositive(Utils.murmur2(keyBytes)) % this.partitions;
  }

  /** The active and standby replicas of {@code partition}, or {@code null} when not known. */
  public @Nullable KeyReplicas replicas(int partition) {
    return (partition >= 0 && partition < this.partitions) ? this.replicas[partition] : null;
  }

  /** Every partition in order with its active replica; empty unless {@link #complete()}. */
  public List<PartitionOwner> owners() {
    return this.owners;
  }

  @Override
  public String toString() {
    return "ViewReplicas[" + this.inputTopic + ", " + this.partitions + " partitions]";
  }
}
