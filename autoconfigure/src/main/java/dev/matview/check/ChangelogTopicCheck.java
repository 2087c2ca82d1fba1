package dev.matview.check;

import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewKind;
import dev.matview.view.ViewWindow;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.config.TopicConfig;

/**
 * The rules of an existing changelog topic: besides those of every internal topic, it keeps what
 * its store needs to be restored: no {@code delete} policy for a table, and for a windowed or
 * session view a retention at least the window store's plus Kafka Streams' additional retention.
 */
final class ChangelogTopicCheck {

  private final String applicationId;

  private final long additionalRetentionMs;

  private final InternalTopicRules rules;

  private final FixCommands fixes;

  /**
   * Checks of the changelogs of {@code applicationId}, where window changelogs are kept {@code
   * additionalRetentionMs} longer than their stores.
   */
  ChangelogTopicCheck(
      String applicationId,
      long additionalRetentionMs,
      InternalTopicRules rules,
      FixCommands fixes) {
    this.applicationId = applicationId;
    this.additionalRetentionMs = additionalRetentionMs;
    this.rules = rules;
    this.fixes = fixes;
  }

  /**
   * Adds the problems of the changelog of {@code view}, if it exists, whose source topic has {@code
   * expected} partitions.
   */
  void check(
      ResolvedView<?, ?, ?> view, int expected, TopicSnapshot topics, List<TopicProblem> problems) {
    String topic = view.changelogTopic(this.applicationId);
    if (!topics.exists(topic)) {
      return;
    }
    String subject =
        "Changelog topic '" + topic + "' of " + view.kind().label() + " view '" + view.name() + "'";
    this.rules.checkPartitions(subject, topic, view, expected, topics, problems);
    Set<String> policy = topics.cleanupPolicy(topic);
    if (!policy.contains(TopicConfig.CLEANUP_POLICY_DELETE)) {
      return;
    }
    ViewWindow window = view.window();
    if (view.kind() == ViewKind.TABLE || window == null) {
      problems.add(
          new TopicProblem(
              topic,
              subject
                  + " has cleanup.policy="
                  + String.join(",", policy)
                  + ", so the broker deletes old updates and a restore would lose the keys that"
                  + " were not updated lately.",
              this.fixes.alterConfig(topic, "cleanup.policy=compact")));
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
    this.rules.checkRetentionBytes(
        subject, topic, topics, problems, "windows the store still holds");
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }
}
