package dev.matview.check;

import dev.matview.topology.ResolvedView;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The rules the views' topics must follow before Kafka Streams starts: every source topic exists;
 * an existing changelog keeps what its store needs to be restored (no {@code delete} policy for a
 * table, a retention at least the window store's for a windowed or session view); an existing
 * repartition topic keeps records until they are aggregated; and every internal topic has as many
 * partitions as its view's source topic, which is the count Kafka Streams gives it.
 *
 * <p>Views have no joins, so no two source topics need to be co-partitioned: views of one topic
 * share its partitions, and a view's repartition and changelog topics follow its source topic. This
 * class names the topics and runs the checks of each kind in the views' order.
 */
public final class ViewTopicChecks {

  private final Collection<ResolvedView<?, ?, ?>> views;

  private final String applicationId;

  private final SourceTopicCheck source;

  private final RepartitionTopicCheck repartition;

  private final ChangelogTopicCheck changelog;

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
    FixCommands fixes = new FixCommands(bootstrapServers, applicationId, viewsBySource().keySet());
    InternalTopicRules rules = new InternalTopicRules(fixes);
    this.source = new SourceTopicCheck(fixes);
    this.repartition = new RepartitionTopicCheck(applicationId, rules, fixes);
    this.changelog = new ChangelogTopicCheck(applicationId, additionalRetentionMs, rules, fixes);
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
    viewsBySource().forEach((source, names) -> this.source.check(source, names, topics, problems));
    for (ResolvedView<?, ?, ?> view : this.views) {
      OptionalInt sourcePartitions = topics.partitions(view.sourceTopic());
      if (sourcePartitions.isPresent()) {
        this.repartition.check(view, sourcePartitions.getAsInt(), topics, problems);
        this.changelog.check(view, sourcePartitions.getAsInt(), topics, problems);
      }
    }
    return problems;
  }

  private Map<String, List<String>> viewsBySource() {
    Map<String, List<String>> bySource = new LinkedHashMap<>();
    for (ResolvedView<?, ?, ?> view : this.views) {
      bySource.computeIfAbsent(view.sourceTopic(), (topic) -> new ArrayList<>()).add(view.name());
    }
    return bySource;
  }
}
