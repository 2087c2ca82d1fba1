package dev.matview.query;

import dev.matview.query.routing.DirectorySource;
import dev.matview.query.routing.ReplicaDirectory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.internals.StreamsMetadataImpl;
import org.jspecify.annotations.Nullable;

/**
 * Shows an instance's {@link ReplicaDirectory} a rebalance of its running Kafka Streams in which
 * one partition's active replica moved to another instance, which no other replica names, as the
 * directory sees it between a new assignment and the end of the rebalance: for tests that need the
 * previous owner of a partition on a real broker, where a real rebalance leaves that moment too
 * short to ask in.
 */
public final class RebalancingDirectory implements AutoCloseable {

  private final ReplicaDirectory directory;

  private final KafkaStreams streams;

  private RebalancingDirectory(ReplicaDirectory directory, KafkaStreams streams) {
    this.directory = directory;
    this.streams = streams;
  }

  /**
   * Makes {@code directory}, which follows {@code streams}, see the instances rebalance with the
   * active replica of {@code moved} on {@code newOwner}, until closed.
   */
  public static RebalancingDirectory moveActive(
      ReplicaDirectory directory, KafkaStreams streams, TopicPartition moved, HostInfo newOwner) {
    MovingSource source = new MovingSource(streams);
    directory.attach(source);
    source.move(moved, newOwner);
    directory.onChange(KafkaStreams.State.REBALANCING, KafkaStreams.State.RUNNING);
    return new RebalancingDirectory(directory, streams);
  }

  /** Lets the directory follow the real Kafka Streams again. */
  @Override
  public void close() {
    this.directory.attach(this.streams);
  }

  /** The real Kafka Streams, or once moved, it rebalancing with one partition elsewhere. */
  private static final class MovingSource implements DirectorySource {

    private final KafkaStreams streams;

    private volatile @Nullable TopicPartition moved;

    private volatile @Nullable HostInfo newOwner;

    MovingSource(KafkaStreams streams) {
      this.streams = streams;
    }

    void move(TopicPartition partition, HostInfo owner) {
      this.newOwner = owner;
      this.moved = partition;
    }

    @Override
    public KafkaStreams.State state() {
      return (this.moved != null) ? KafkaStreams.State.REBALANCING : this.streams.state();
    }

    @Override
    public Collection<StreamsMetadata> metadata() {
      Collection<StreamsMetadata> real = this.streams.metadataForAllStreamsClients();
      TopicPartition partition = this.moved;
      HostInfo owner = this.newOwner;
      if (partition == null || owner == null) {
        return real;
      }
      List<StreamsMetadata> rebalancing = new ArrayList<>();
      Set<String> stores = new HashSet<>();
      for (StreamsMetadata instance : real) {
        stores.addAll(instance.stateStoreNames());
        rebalancing.add(
            new StreamsMetadataImpl(
                instance.hostInfo(),
                instance.stateStoreNames(),
                without(instance.topicPartitions(), partition),
                instance.standbyStateStoreNames(),
                without(instance.standbyTopicPartitions(), partition)));
      }
      rebalancing.add(
          new StreamsMetadataImpl(owner, stores, Set.of(partition), Set.of(), Set.of()));
      return rebalancing;
    }

    private static Set<TopicPartition> without(Set<TopicPartition> all, TopicPartition one) {
      Set<TopicPartition> rest = new HashSet<>(all);
      rest.remove(one);
      return rest;
    }
  }
}
