package dev.matview.check;

import dev.matview.topology.ResolvedView;
import java.util.List;
import org.apache.kafka.common.config.TopicConfig;

/**
 * The rules every existing internal topic of a view follows, whatever its kind: as many partitions
 * as its view's source topic, which is the count Kafka Streams gives it, and no size cap that
 * deletes records the view still needs.
 */
final class InternalTopicRules {

  private final FixCommands fixes;

  /** Rules whose fixes {@code fixes} writes. */
  InternalTopicRules(FixCommands fixes) {
    this.fixes = fixes;
  }

  /**
   * Adds a problem when {@code topic} of {@code view}, described as {@code subject}, has other
   * partitions than the {@code expected} of its source topic.
   */
  void checkPartitions(
      String subject,
      String topic,
      ResolvedView<?, ?, ?> view,
      int expected,
      TopicSnapshot topics,
      List<TopicProblem> problems) {
    int actual = topics.partitions(topic).orElse(expected);
    if (actual != expected) {
      problems.add(
          new TopicProblem(
              topic,
              subject
                  + " has "
                  + actual
                  + " partitions but its source topic '"
                  + view.sourceTopic()
                  + "' has "
                  + expected
                  + ": they must be co-partitioned, one partition per source partition, or Kafka"
                  + " Streams stops with an error (was the source topic given more partitions?).",
              this.fixes.resetApplication()));
    }
  }

  /**
   * Adds a problem when {@code topic}, described as {@code subject}, caps the size of a partition,
   * past which the broker deletes what is {@code lost}.
   */
  void checkRetentionBytes(
      String subject,
      String topic,
      TopicSnapshot topics,
      List<TopicProblem> problems,
      String lost) {
    long retentionBytes = topics.limit(topic, TopicConfig.RETENTION_BYTES_CONFIG);
    if (retentionBytes != TopicSnapshot.UNLIMITED) {
      problems.add(
          new TopicProblem(
              topic,
              subject
                  + " has retention.bytes="
                  + retentionBytes
                  + ", so the broker deletes "
                  + lost
                  + " once a partition grows past it.",
              this.fixes.alterConfig(topic, "retention.bytes=-1")));
    }
  }
}
