package dev.matview.benchmarks.kafka;

import dev.matview.processes.KafkaBroker;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;

/**
 * How far a Kafka Streams application has processed its input, from its consumer group's committed
 * offsets on the source topic and on its repartition topics: Kafka Streams commits an offset only
 * after flushing the stores that the records before it updated.
 *
 * @param sourceCommitted offsets committed on the source topic, summed over its partitions
 * @param sourceEnd end offsets of the source topic, summed
 * @param repartitionCommitted offsets committed on the repartition topics, summed
 * @param repartitionEnd end offsets of the repartition topics, summed
 */
public record StreamsProgress(
    long sourceCommitted, long sourceEnd, long repartitionCommitted, long repartitionEnd) {

  /** Whether every record of the source and repartition topics is processed and committed. */
  public boolean caughtUp() {
    return this.sourceEnd > 0
        && this.sourceCommitted >= this.sourceEnd
        && this.repartitionCommitted >= this.repartitionEnd;
  }

  /** The progress of {@code applicationId} over {@code sourceTopic} now. */
  public static StreamsProgress of(Admin admin, String applicationId, String sourceTopic)
      throws Exception {
    Map<TopicPartition, OffsetAndMetadata> committed =
        admin
            .listConsumerGroupOffsets(applicationId)
            .partitionsToOffsetAndMetadata()
            .get(30, TimeUnit.SECONDS);
    Set<String> repartitions =
        admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
            .filter(name -> name.startsWith(applicationId + "-") && name.endsWith("-repartition"))
            .collect(Collectors.toSet());
    Map<TopicPartition, Long> ends = endOffsets(admin, sourceTopic, repartitions);
    long sourceCommitted = 0;
    long sourceEnd = 0;
    long repartitionCommitted = 0;
    long repartitionEnd = 0;
    for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
      OffsetAndMetadata offset = committed.get(end.getKey());
      long done = (offset != null) ? offset.offset() : 0;
      if (end.getKey().topic().equals(sourceTopic)) {
        sourceCommitted += done;
        sourceEnd += end.getValue();
      } else {
        repartitionCommitted += done;
        repartitionEnd += end.getValue();
      }
    }
    return new StreamsProgress(sourceCommitted, sourceEnd, repartitionCommitted, repartitionEnd);
  }

  /** The end offsets of every partition of {@code topics}, summed. */
  public static long endOffsets(Admin admin, String topic) throws Exception {
    return endOffsets(admin, topic, Set.of()).values().stream().mapToLong(Long::longValue).sum();
  }

  /** The end offset of every partition of {@code topic}. */
  public static Map<TopicPartition, Long> endOffsetsByPartition(Admin admin, String topic)
      throws Exception {
    return endOffsets(admin, topic, Set.of());
  }

  /** Waits up to {@code bound} until {@code applicationId} has processed all of its input. */
  public static void awaitCaughtUp(
      KafkaBroker broker, String applicationId, String sourceTopic, Duration bound) {
    awaitCaughtUp(broker, applicationId, sourceTopic, bound, () -> {});
  }

  /**
   * Waits up to {@code bound} until {@code applicationId} has processed all of its input, every 500
   * ms; {@code check} runs before each look and ends the wait by throwing, such as when the
   * application's JVM has exited.
   */
  public static void awaitCaughtUp(
      KafkaBroker broker,
      String applicationId,
      String sourceTopic,
      Duration bound,
      Runnable check) {
    try (Admin admin = broker.admin()) {
      Awaitility.await(applicationId + " processing all of " + sourceTopic)
          .atMost(bound)
          .pollInterval(Duration.ofMillis(500))
          .until(
              () -> {
                check.run();
                return of(admin, applicationId, sourceTopic).caughtUp();
              });
    }
  }

  private static Map<TopicPartition, Long> endOffsets(
      Admin admin, String sourceTopic, Set<String> others) throws Exception {
    List<String> topics =
        java.util.stream.Stream.concat(java.util.stream.Stream.of(sourceTopic), others.stream())
            .toList();
    Map<String, TopicDescription> descriptions =
        admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS);
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    descriptions.forEach(
        (name, description) ->
            description
                .partitions()
                .forEach(
                    p -> latest.put(new TopicPartition(name, p.partition()), OffsetSpec.latest())));
    Map<TopicPartition, Long> ends = new HashMap<>();
    admin
        .listOffsets(latest)
        .all()
        .get(30, TimeUnit.SECONDS)
        .forEach((partition, info) -> ends.put(partition, info.offset()));
    return ends;
  }
}
