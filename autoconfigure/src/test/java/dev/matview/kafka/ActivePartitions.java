package dev.matview.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;

/** Which partitions of a topic the instances of one application hold as active tasks. */
public final class ActivePartitions {

  private ActivePartitions() {}

  /** The partitions of {@code topic} that the stream threads of {@code streams} hold as active. */
  public static Set<Integer> of(KafkaStreams streams, String topic) {
    Set<Integer> partitions = new TreeSet<>();
    for (ThreadMetadata thread : streams.metadataForLocalThreads()) {
      for (TaskMetadata task : thread.activeTasks()) {
        task.topicPartitions().stream()
            .filter(partition -> partition.topic().equals(topic))
            .forEach(partition -> partitions.add(partition.partition()));
      }
    }
    return partitions;
  }

  /**
   * Waits until each of {@code instances} runs with active partitions of {@code topic} of its own,
   * which together are all its {@code partitions}: with nothing published yet, no later rebalance
   * moves a partition that has state to restore.
   */
  public static void awaitSharedOut(List<KafkaStreams> instances, String topic, int partitions) {
    await("every partition of " + topic + " active on one of the instances, each with some")
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              Set<Integer> all = new TreeSet<>();
              for (KafkaStreams instance : instances) {
                assertThat(instance.state()).isEqualTo(KafkaStreams.State.RUNNING);
                Set<Integer> active = of(instance, topic);
                assertThat(active).isNotEmpty();
                all.addAll(active);
              }
              assertThat(all).hasSize(partitions);
            });
  }
}
