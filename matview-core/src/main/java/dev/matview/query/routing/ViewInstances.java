package dev.matview.query.routing;

import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsMetadata;
import org.jspecify.annotations.Nullable;

/**
 * Every instance of the application with the partitions of each view that it holds as active and as
 * standby replica, from the metadata that Kafka Streams keeps locally: no call to the broker or
 * another instance.
 */
public final class ViewInstances {

  private static final Comparator<InstancePartitions> ORDER =
      Comparator.comparing((InstancePartitions instance) -> instance.host().host())
          .thenComparingInt((instance) -> instance.host().port());

  private final Supplier<@Nullable KafkaStreams> streams;

  private final ViewRegistry views;

  private final LocalInstance localInstance;

  /** The instances the metadata of {@code streams} knows, with the partitions of {@code views}. */
  public ViewInstances(
      Supplier<@Nullable KafkaStreams> streams, ViewRegistry views, LocalInstance localInstance) {
    this.streams = streams;
    this.views = views;
    this.localInstance = localInstance;
  }

  /**
   * Every instance by host and port, or none while Kafka Streams is neither running nor
   * rebalancing; during a rebalance the assignment is the last one known.
   */
  public List<InstancePartitions> all() {
    KafkaStreams kafkaStreams = this.streams.get();
    if (kafkaStreams == null || !kafkaStreams.state().isRunningOrRebalancing()) {
      return List.of();
    }
    Collection<StreamsMetadata> clients;
    try {
      clients = kafkaStreams.metadataForAllStreamsClients();
    } catch (IllegalStateException ex) {
      return List.of(); // stopped since the state was read
    }
    return clients.stream().map(this::partitions).sorted(ORDER).toList();
  }

  private InstancePartitions partitions(StreamsMetadata client) {
    return new InstancePartitions(
        client.hostInfo(),
        Objects.equals(client.hostInfo(), this.localInstance.hostInfo()),
        byView(client.stateStoreNames(), client.topicPartitions()),
        byView(client.standbyStateStoreNames(), client.standbyTopicPartitions()));
  }

  private Map<String, List<Integer>> byView(Set<String> stores, Set<TopicPartition> partitions) {
    Map<String, List<Integer>> byView = new LinkedHashMap<>();
    for (ResolvedView<?, ?, ?> view : this.views.all()) {
      if (!stores.contains(view.storeName())) {
        continue;
      }
      String inputTopic = view.inputTopic(this.views.applicationId());
      List<Integer> numbers =
          partitions.stream()
              .filter((partition) -> partition.topic().equals(inputTopic))
              .map(TopicPartition::partition)
              .sorted()
              .toList();
      if (!numbers.isEmpty()) {
        byView.put(view.name(), numbers);
      }
    }
    return byView;
  }
}
