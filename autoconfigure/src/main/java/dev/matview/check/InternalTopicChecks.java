package dev.matview.check;

import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewKind;
import dev.matview.view.ViewWindow;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.config.TopicConfig;

/**
 * The rules of a view's existing internal topics: as many partitions as its source topic, no size
 * cap; a repartition topic keeps records until they are aggregated (Kafka Streams purges them
 * itself), and a changelog what its store needs to be restored (no {@code delete} policy for a
 * table, for a windowed or session view a retention at least the window store's plus Kafka Streams'
 * additional retention).
 */
final class InternalTopicChecks {

  private final String applicationId;

  private final long additionalRetentionMs;

  private final FixCommands fixes;

  /** Checks where window changelogs are kept {@code additionalRetentionMs} longer. */
  InternalTopicChecks(String applicationId, long additionalRetentionMs, FixCommands fixes) {
    this.applicationId = applicationId;
    this.additionalRetentionMs = additionalRetentionMs;
    this.fixes = fixes;
  }

  /** Adds the problems of {@code view}'s repartition topic, if it exists. */
  void checkRepartition(
      ResolvedView<?, ?, ?> view, int expected, TopicSnapshot topics, List<TopicProblem> problems) {
    String topic = view.repartitionTopic(this.applicationId);
    if (topic == null || !topics.exists(topic)) {
      return;
    }
    String subject = "Repartition topic '" + topic + "' of view '" + view.name() + "'";
    checkPartitions(subject, topic, view, expected, topics, problems);
    Set<String> policy = topics.cleanupPolicy(topic);
    if (policy.contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
      problems.add(
          policyProblem(
              subject,
              topic,
              policy,
              "compaction may drop records of one key before the view aggregates them.",
              "delete"));
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
      checkRetentionBytes(subject, topic, topics, problems, "records the view has not read");
    }
  }

  /** Adds the problems of {@code view}'s changelog, if it exists. */
  void checkChangelog(
      ResolvedView<?, ?, ?> view, int expected, TopicSnapshot topics, List<TopicProblem> problems) {
    String topic = view.changelogTopic(this.applicationId);
    if (!topics.exists(topic)) {
      return;
    }
    String subject =
        "Changelog topic '" + topic + "' of " + view.kind().label() + " view '" + view.name() + "'";
    checkPartitions(subject, topic, view, expected, topics, problems);
    Set<String> policy = topics.cleanupPolicy(topic);
    if (!policy.contains(TopicConfig.CLEANUP_POLICY_DELETE)) {
      return;
    }
    ViewWindow window = view.window();
    if (view.kind() == ViewKind.TABLE || window == null) {
      problems.add(
          policyProblem(
              subject,
              topic,
              policy,
              "the broker deletes old updates and a restore would lose the keys that were not"
                  + " updated lately.",
              "compact"));
      return;
    }
    long storeRetentionMs = window.effectiveRetention().toMillis();
    long requiredMs = saturatedAdd(storeRetentionMs, this.additionalRetentionMs);
    long retentionMs = topics.limit(topic, TopicConfig.RETENTION_MS_CONFIG);
    if (retentionMs != TopicSnapshot.UNLIMITED && retentionMs < requiredMs) {
      problems.add(
          new TopicProblem(
              topic,
              subject
                  + " has retention.ms="
                  + retentionMs
                  + ", shorter than the "
                  + requiredMs
                  + " ms Kafka Streams needs (the store's retention of "
                  + storeRetentionMs
                  + " ms plus windowstore.changelog.additional.retention.ms of "
                  + this.additionalRetentionMs
                  + " ms), so a restore would lose windows the store still holds.",
              this.fixes.alterConfig(topic, "retention.ms=" + requiredMs)));
    }
    checkRetentionBytes(subject, topic, topics, problems, "windows the store still holds");
  }

  /** The problem of {@code topic}'s cleanup policy, whose {@code consequence} the fix avoids. */
  private TopicProblem policyProblem(
      String subject, String topic, Set<String> policy, String consequence, String fixedPolicy) {
    return new TopicProblem(
        topic,
        subject + " has cleanup.policy=" + String.join(",", policy) + ", so " + consequence,
        this.fixes.alterConfig(topic, "cleanup.policy=" + fixedPolicy));
  }

  /** Adds a problem when {@code topic} has other partitions than its source's {@code expected}. */
  private void checkPartitions(
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

  /** Adds a problem when {@code topic} caps a partition's size, past which {@code lost} goes. */
  private void checkRetentionBytes(
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

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }
}
