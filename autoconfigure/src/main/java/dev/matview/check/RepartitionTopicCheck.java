package dev.matview.check;

import dev.matview.topology.ResolvedView;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.config.TopicConfig;

/**
 * The rules of an existing repartition topic: besides those of every internal topic, it keeps
 * records until its view has aggregated them, so it neither compacts nor deletes them by age or by
 * size (Kafka Streams purges them itself).
 */
final class RepartitionTopicCheck {

  private final String applicationId;

  private final InternalTopicRules rules;

  private final FixCommands fixes;

  /** Checks of the repartition topics of {@code applicationId}. */
  RepartitionTopicCheck(String applicationId, InternalTopicRules rules, FixCommands fixes) {
    this.applicationId = applicationId;
    this.rules = rules;
    this.fixes = fixes;
  }

  /**
   * Adds the problems of the repartition topic of {@code view}, if it has one that exists, whose
   * source topic has {@code expected} partitions.
   */
  void check(
      ResolvedView<?, ?, ?> view, int expected, TopicSnapshot topics, List<TopicProblem> problems) {
    String topic = view.repartitionTopic(this.applicationId);
    if (topic == null || !topics.exists(topic)) {
      return;
    }
    String subject = "Repartition topic '" + topic + "' of view '" + view.name() + "'";
    this.rules.checkPartitions(subject, topic, view, expected, topics, problems);
    Set<String> policy = topics.cleanupPolicy(topic);
    if (policy.contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
      problems.add(
          new TopicProblem(
              topic,
              subject
                  + " has cleanup.policy="
                  + String.join(",", policy)
                  + ", so compaction may drop records of one key before the view aggregates"
                  + " them.",
              this.fixes.alterConfig(topic, "cleanup.policy=delete")));
    } else if (policy.contains(TopicConfig.CLEANUP_POLICY_DELETE)) {
      long retentionMs = topics.limit(topic, TopicConfig.RETENTION_MS_CONFIG);
      if (retentionMs != TopicSnapshot.UNLIMITED) {
        problems.add(
            new TopicProblem(
                topic,
                subject
                    + " has retention.ms="
                    + retentionMs
                    + ", so records are deleted when the view has not read them by then (Kafka"
                    + " Streams purges them itself once they are aggregated).",
                this.fixes.alterConfig(topic, "retention.ms=-1")));
      }
      this.rules.checkRetentionBytes(
          subject, topic, topics, problems, "records the view has not read");
    }
  }
}
