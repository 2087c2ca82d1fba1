package dev.matview.benchmarks.directory;

import dev.matview.query.answer.KeyReplicas;
import dev.matview.query.routing.ViewReplicas;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.StreamsMetadata;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Row 9's JMH benchmarks: what {@code ReplicaDirectory.rebuild} computes from Kafka Streams'
 * metadata, {@link ViewReplicas#ofEach} for every view at once, beside {@link ViewReplicas#of} per
 * view and one pass per view over the same metadata that only reads each view's partitions and
 * their hosts.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DirectoryRebuildJmh {

  /** The application's instances. */
  @Param("100")
  public int instances;

  /** The partitions of every topic. */
  @Param("1000")
  public int partitions;

  /** The views, each fed by a repartition topic of its own. */
  @Param("3")
  public int views;

  @SuppressWarnings("NullAway.Init")
  private List<String> topics;

  @SuppressWarnings("NullAway.Init")
  private List<StreamsMetadata> metadata;

  /** Builds the metadata and checks that every view's replicas are read whole. */
  @Setup
  public void setUp() {
    this.metadata = AssignmentMetadata.of(this.instances, this.partitions, this.views);
    this.topics = AssignmentMetadata.inputTopics(this.views).stream().map(String::new).toList();
    for (String topic : this.topics) {
      ViewReplicas replicas = ViewReplicas.of(topic, this.metadata);
      KeyReplicas last = replicas.replicas(this.partitions - 1);
      if (!replicas.complete()
          || replicas.partitions() != this.partitions
          || last == null
          || last.standbys().size() != 1) {
        throw new IllegalStateException(
            "The directory of " + topic + " did not name every partition's replicas: " + replicas);
      }
    }
  }

  /** The replicas of every view, as the directory rebuilds them: one pass over the metadata. */
  @Benchmark
  public Object rebuild() {
    return ViewReplicas.ofEach(this.topics, this.metadata);
  }

  /** The replicas of every view read one view at a time ({@link ViewReplicas#of}), as before. */
  @Benchmark
  public void perView(Blackhole blackhole) {
    for (String topic : this.topics) {
      blackhole.consume(ViewReplicas.of(topic, this.metadata));
    }
  }

  /** One pass over every instance's active and standby partitions of every view, read only. */
  @Benchmark
  public void read(Blackhole blackhole) {
    for (String topic : this.topics) {
      int seen = 0;
      for (StreamsMetadata instance : this.metadata) {
        int host = instance.hostInfo().port();
        for (TopicPartition partition : instance.topicPartitions()) {
          if (partition.topic().equals(topic)) {
            seen += partition.partition() + host;
          }
        }
        for (TopicPartition partition : instance.standbyTopicPartitions()) {
          if (partition.topic().equals(topic)) {
            seen += partition.partition() + host;
          }
        }
      }
      blackhole.consume(seen);
    }
  }
}
