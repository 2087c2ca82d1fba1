package dev.matview.query.routing;

import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.KafkaStreams;
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
}
