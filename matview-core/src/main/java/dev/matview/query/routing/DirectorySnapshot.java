package dev.matview.query.routing;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;

/**
 * The replicas of every view, as the {@link ReplicaDirectory} built them while Kafka Streams was in
 * {@code state}.
 *
 * @param state the state, or {@code null} before any build
 * @param views the replicas of each view by store name
 * @param stable the last complete replicas of each view built while Kafka Streams was running
 * @param hosts every instance the metadata named
 */
record DirectorySnapshot(
    KafkaStreams.@Nullable State state,
    Map<String, ViewReplicas> views,
    Map<String, ViewReplicas> stable,
    Set<HostInfo> hosts) {

  static final DirectorySnapshot EMPTY = new DirectorySnapshot(null, Map.of(), Map.of(), Set.of());

  private static final Log logger = LogFactory.getLog(DirectorySnapshot.class);

  /**
   * The snapshot built after this one from {@code metadata}, which Kafka Streams told in {@code
   * state}, for the views whose input topics {@code inputTopics} names by store name. While the
   * instances rebalance, each partition whose active replica moved since the last complete snapshot
   * built while running names the instance that held it as its previous owner, and a view whose
   * partitions do not all have an owner keeps its last complete replicas.
   */
  DirectorySnapshot next(
      KafkaStreams.State state,
      Collection<StreamsMetadata> metadata,
      Map<String, String> inputTopics) {
    boolean running = state == KafkaStreams.State.RUNNING;
    Map<String, ViewReplicas> views = new HashMap<>();
    Map<String, ViewReplicas> stable = new HashMap<>(this.stable());
    Map<String, ViewReplicas> stableByTopic = new HashMap<>();
    if (!running) {
      inputTopics.forEach(
          (store, topic) -> {
            ViewReplicas before = this.stable().get(store);
            if (before != null) {
              stableByTopic.put(topic, before);
            }
          });
    }
    Map<String, ViewReplicas> byTopic =
        ViewReplicas.ofEach(inputTopics.values(), metadata, stableByTopic::get);
    for (Map.Entry<String, String> view : inputTopics.entrySet()) {
      ViewReplicas chosen = Objects.requireNonNull(byTopic.get(view.getValue()));
      ViewReplicas kept = this.views().get(view.getKey());
      if (kept != null && kept.complete() && !chosen.complete() && !running) {
        if (logger.isDebugEnabled()) {
          logger.debug(
              "Not every partition of view '"
                  + view.getKey()
                  + "' has a known owner while Kafka Streams is "
                  + state
                  + "; lookups keep routing by the last complete snapshot");
        }
        chosen = kept;
      }
      views.put(view.getKey(), chosen);
      if (running && chosen.complete()) {
        stable.put(view.getKey(), chosen);
      }
    }
    Set<HostInfo> hosts = new HashSet<>();
    metadata.forEach((instance) -> hosts.add(instance.hostInfo()));
    return new DirectorySnapshot(state, Map.copyOf(views), Map.copyOf(stable), Set.copyOf(hosts));
  }
}
