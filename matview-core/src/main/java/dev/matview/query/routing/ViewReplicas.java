package dev.matview.query.routing;

import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.answer.PartitionOwner;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
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

  ViewReplicas(String inputTopic, int partitions, @Nullable KeyReplicas[] replicas) {
    this.inputTopic = inputTopic;
    this.partitions = partitions;
    this.replicas = replicas;
    PartitionOwner[] owners = new PartitionOwner[replicas.length];
    for (int partition = 0; partition < replicas.length; partition++) {
      @Nullable KeyReplicas held = replicas[partition];
      if (held == null) {
        owners = new PartitionOwner[0];
        break;
      }
      owners[partition] = held.active();
    }
    this.owners = List.of(owners);
  }

  /** The replicas of the partitions of {@code inputTopic} that {@code metadata} names. */
  public static ViewReplicas of(String inputTopic, Collection<StreamsMetadata> metadata) {
    return of(inputTopic, metadata, null);
  }

  /**
   * The replicas as above, each with {@code previous}'s active instance as previous owner where it
   * is another that holds no standby now.
   */
  public static ViewReplicas of(
      String inputTopic, Collection<StreamsMetadata> metadata, @Nullable ViewReplicas previous) {
    ViewReplicas replicas =
        ofEach(List.of(inputTopic), metadata, (topic) -> previous).get(inputTopic);
    return (replicas != null) ? replicas : none(inputTopic);
  }

  /**
   * The replicas of each of {@code inputTopics}, by topic, as {@link #of} reads them, in one pass
   * over {@code metadata}: every instance's partitions are read once, whatever the number of
   * topics, into arrays indexed by partition, so a rebuild takes time linear in the metadata and
   * allocates little beyond the snapshot.
   */
  public static Map<String, ViewReplicas> ofEach(
      Collection<String> inputTopics, Collection<StreamsMetadata> metadata) {
    return ofEach(inputTopics, metadata, (topic) -> null);
  }

  /**
   * The replicas of each of {@code inputTopics} as {@link #ofEach(Collection, Collection)} reads
   * them, with previous owners from {@code previous}.
   */
  public static Map<String, ViewReplicas> ofEach(
      Collection<String> inputTopics,
      Collection<StreamsMetadata> metadata,
      Function<String, @Nullable ViewReplicas> previous) {
    Map<String, ReplicaPlacements> topics = new HashMap<>();
    inputTopics.forEach((topic) -> topics.put(topic, new ReplicaPlacements()));
    for (StreamsMetadata instance : metadata) {
      HostInfo host = instance.hostInfo();
      for (TopicPartition partition : instance.topicPartitions()) {
        ReplicaPlacements placements = topics.get(partition.topic());
        if (placements != null) {
          placements.active(partition.partition(), host);
        }
      }
      for (TopicPartition partition : instance.standbyTopicPartitions()) {
        ReplicaPlacements placements = topics.get(partition.topic());
        if (placements != null) {
          placements.standby(partition.partition(), host);
        }
      }
    }
    Map<String, ViewReplicas> replicas = new HashMap<>();
    topics.forEach(
        (topic, placements) ->
            replicas.put(topic, placements.replicas(topic, previous.apply(topic))));
    return Map.copyOf(replicas);
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
