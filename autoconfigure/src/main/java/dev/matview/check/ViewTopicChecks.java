package dev.matview.check;

import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewKind;
import dev.matview.view.ViewWindow;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.TopicConfig;
import org.jspecify.annotations.Nullable;

/**
 * The rules the views' topics must follow before Kafka Streams starts: every source topic exists;
 * an existing changelog keeps what its store needs to be restored (no {@code delete} policy for a
 * table, a retention at least the window store's for a windowed or session view); an existing
 * repartition topic keeps records until they are aggregated; and every internal topic has as many
 * partitions as its view's source topic, which is the count Kafka Streams gives it.
 *
 * <p>Views have no joins, so no two source topics need to be co-partitioned: views of one topic
 * share its partitions, and a view's repartition and changelog topics follow its source topic.
 */
public final class ViewTopicChecks {

  private static final long INFINITE = -1;

  private final Collection<ResolvedView<?, ?, ?>> views;

  private final String applicationId;

  private final long additionalRetentionMs;

  private final FixCommands fixes;

  /**
   * Checks for {@code views} of {@code applicationId} on the cluster at {@code bootstrapServers},
   * where window changelogs are kept {@code additionalRetentionMs} longer than their stores.
   */
  public ViewTopicChecks(
      Collection<ResolvedView<?, ?, ?>> views,
      String applicationId,
      long additionalRetentionMs,
      String bootstrapServers) {
    this.views = List.copyOf(views);
    this.applicationId = applicationId;
    this.additionalRetentionMs = additionalRetentionMs;
    this.fixes = new FixCommands(bootstrapServers, applicationId, viewsBySource().keySet());
  }

  /** Every topic the checks need to know about. */
  public Set<String> topics() {
    Set<String> topics = new LinkedHashSet<>(viewsBySource().keySet());
    topics.addAll(internalTopics());
    return topics;
  }

  /** The source topics of the views. */
  public Set<String> sourceTopics() {
    return new LinkedHashSet<>(viewsBySource().keySet());
  }

  /** The changelog and repartition topics, whose configuration the checks read. */
  public Set<String> internalTopics() {
    Set<String> topics = new LinkedHashSet<>();
    for (ResolvedView<?, ?, ?> view : this.views) {
      String repartition = view.repartitionTopic(this.applicationId);
      if (repartition != null) {
        topics.add(repartition);
      }
      topics.add(view.changelogTopic(this.applicationId));
    }
    return topics;
  }

  /** The problems of the topics as {@code topics} describes them, in the views' order. */
  public List<TopicProblem> check(TopicSnapshot topics) {
    List<TopicProblem> problems = new ArrayList<>();
    viewsBySource()
        .forEach(
            (source, names) -> {
              if (!topics.exists(source)) {
                problems.add(missingSource(source, names, topics));
              }
            });
    for (ResolvedView<?, ?, ?> view : this.views) {
      OptionalInt sourcePartitions = topics.partitions(view.sourceTopic());
      if (sourcePartitions.isPresent()) {
        checkRepartition(view, sourcePartitions.getAsInt(), topics, problems);
        checkChangelog(view, sourcePartitions.getAsInt(), topics, problems);
      }
    }
    return problems;
  }

  private TopicProblem missingSource(String source, List<String> viewNames, TopicSnapshot topics) {
    List<String> suggestions = TopicSuggestions.closeTo(source, topics.names());
    return new TopicProblem(
        source,
        "Source topic '"
            + source
            + "' of "
            + viewList(viewNames)
            + " does not exist, so Kafka Streams cannot read it."
            + (suggestions.isEmpty() ? "" : " Did you mean " + alternatives(suggestions) + "?"),
        "create it with "
            + this.fixes.createTopic(source)
            + ", or declare it as a bean, which Spring Boot's KafkaAdmin creates at start-up: "
            + this.fixes.newTopicBean(source));
  }

  private static String alternatives(List<String> topics) {
    List<String> quoted = topics.stream().map(topic -> "'" + topic + "'").toList();
    int last = quoted.size() - 1;
    return (last == 0)
        ? quoted.get(0)
        : String.join(", ", quoted.subList(0, last)) + " or " + quoted.get(last);
  }

  private void checkRepartition(
      ResolvedView<?, ?, ?> view, int expected, TopicSnapshot topics, List<TopicProblem> problems) {
    String topic = view.repartitionTopic(this.applicationId);
    if (topic == null || !topics.exists(topic)) {
      return;
    }
    String subject = "Repartition topic '" + topic + "' of view '" + view.name() + "'";
    checkPartitions(subject, topic, view, expected, topics, problems);
    Set<String> policy = cleanupPolicy(topics, topic);
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
      long retentionMs = longConfig(topics, topic, TopicConfig.RETENTION_MS_CONFIG);
      if (retentionMs != INFINITE) {
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

  private void checkChangelog(
      ResolvedView<?, ?, ?> view, int expected, TopicSnapshot topics, List<TopicProblem> problems) {
    String topic = view.changelogTopic(this.applicationId);
    if (!topics.exists(topic)) {
      return;
    }
    String subject =
        "Changelog topic '" + topic + "' of " + view.kind().label() + " view '" + view.name() + "'";
    checkPartitions(subject, topic, view, expected, topics, problems);
    Set<String> policy = cleanupPolicy(topics, topic);
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
    long retentionMs = longConfig(topics, topic, TopicConfig.RETENTION_MS_CONFIG);
    if (retentionMs != INFINITE && retentionMs < requiredMs) {
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

  private void checkRetentionBytes(
      String subject,
      String topic,
      TopicSnapshot topics,
      List<TopicProblem> problems,
      String lost) {
    long retentionBytes = longConfig(topics, topic, TopicConfig.RETENTION_BYTES_CONFIG);
    if (retentionBytes != INFINITE) {
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

  private Map<String, List<String>> viewsBySource() {
    Map<String, List<String>> bySource = new LinkedHashMap<>();
    for (ResolvedView<?, ?, ?> view : this.views) {
      bySource.computeIfAbsent(view.sourceTopic(), (topic) -> new ArrayList<>()).add(view.name());
    }
    return bySource;
  }

  private static String viewList(List<String> names) {
    String quoted = names.stream().map(name -> "'" + name + "'").collect(Collectors.joining(", "));
    return (names.size() == 1 ? "view " : "views ") + quoted;
  }

  private static Set<String> cleanupPolicy(TopicSnapshot topics, String topic) {
    String value = topics.config(topic, TopicConfig.CLEANUP_POLICY_CONFIG);
    if (value == null) {
      return Set.of();
    }
    return Arrays.stream(value.replace("[", "").replace("]", "").split(","))
        .map(part -> part.trim().toLowerCase(Locale.ROOT))
        .filter(part -> !part.isEmpty())
        .collect(Collectors.toCollection(LinkedHashSet::new));
  }

  private static long longConfig(TopicSnapshot topics, String topic, String name) {
    @Nullable String value = topics.config(topic, name);
    if (value == null) {
      return INFINITE;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException ex) {
      return INFINITE;
    }
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }
}
