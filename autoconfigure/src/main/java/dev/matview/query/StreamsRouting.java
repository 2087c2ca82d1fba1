package dev.matview.query;

import dev.matview.topology.ResolvedView;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;

/**
 * Routing from Kafka Streams' own metadata, which every instance keeps locally: no call to the
 * broker or another instance per request.
 */
public final class StreamsRouting implements Routing {

  static final Duration REBALANCE_RETRY = Duration.ofSeconds(1);

  private final Supplier<@Nullable KafkaStreams> streams;

  private final LocalInstance localInstance;

  private final String applicationId;

  /** Routing by the metadata of {@code streams}, which runs as {@code localInstance}. */
  public StreamsRouting(
      Supplier<@Nullable KafkaStreams> streams, LocalInstance localInstance, String applicationId) {
    this.streams = streams;
    this.localInstance = localInstance;
    this.applicationId = applicationId;
  }

  @Override
  public <K> PartitionOwner ownerOfKey(ResolvedView<K, ?, ?> view, K key) {
    return replicasOfKey(view, key).active();
  }

  @Override
  @SuppressWarnings("unchecked")
  public <K> KeyReplicas replicasOfKey(ResolvedView<K, ?, ?> view, K key) {
    KafkaStreams kafkaStreams = running(view, key);
    KeyQueryMetadata metadata =
        kafkaStreams.queryMetadataForKey(
            view.storeName(), key, (Serializer<K>) view.keySerde().serializer());
    if (metadata == null
        || KeyQueryMetadata.NOT_AVAILABLE.equals(metadata)
        || metadata.activeHost() == null
        || metadata.activeHost().port() < 0) {
      throw new ViewUnavailableException(
          view.name(),
          key,
          null,
          "The owner of this key's partition is not known while the instances rebalance",
          REBALANCE_RETRY);
    }
    int partition = metadata.partition();
    List<PartitionOwner> standbys =
        metadata.standbyHosts().stream().map(host -> new PartitionOwner(partition, host)).toList();
    return new KeyReplicas(new PartitionOwner(partition, metadata.activeHost()), standbys);
  }

  @Override
  public List<PartitionOwner> owners(ResolvedView<?, ?, ?> view) {
    KafkaStreams kafkaStreams = running(view, null);
    String inputTopic = view.inputTopic(this.applicationId);
    TreeMap<Integer, HostInfo> owners = new TreeMap<>();
    for (StreamsMetadata metadata : kafkaStreams.streamsMetadataForStore(view.storeName())) {
      for (TopicPartition partition : metadata.topicPartitions()) {
        if (partition.topic().equals(inputTopic)) {
          owners.put(partition.partition(), metadata.hostInfo());
        }
      }
    }
    if (owners.isEmpty() || owners.lastKey() != owners.size() - 1) {
      throw new ViewUnavailableException(
          view.name(),
          null,
          null,
          "Not every partition of view '"
              + view.name()
              + "' has a known owner while the instances rebalance",
          REBALANCE_RETRY);
    }
    return owners.entrySet().stream()
        .map(entry -> new PartitionOwner(entry.getKey(), entry.getValue()))
        .toList();
  }

  @Override
  public boolean isLocal(PartitionOwner owner) {
    return Objects.equals(owner.host(), this.localInstance.hostInfo());
  }

  private KafkaStreams running(ResolvedView<?, ?, ?> view, @Nullable Object key) {
    KafkaStreams kafkaStreams = this.streams.get();
    if (kafkaStreams == null || !kafkaStreams.state().isRunningOrRebalancing()) {
      throw new ViewUnavailableException(
          view.name(),
          key,
          null,
          "Kafka Streams is "
              + (kafkaStreams != null ? kafkaStreams.state() : "not started")
              + "; view '"
              + view.name()
              + "' cannot be queried until it is running",
          REBALANCE_RETRY);
    }
    return kafkaStreams;
  }
}
