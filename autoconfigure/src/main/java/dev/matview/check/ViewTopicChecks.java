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
import java.util.stream.Collectors;

/**
 * The rules the views' topics must follow before Kafka Streams starts, checked in the views' order:
 * every source topic exists, and each internal topic follows {@link InternalTopicChecks}; views
 * have no joins, so no two source topics need to be co-partitioned.
 */
public final class ViewTopicChecks {

  private final Collection<ResolvedView<?, ?, ?>> views;

  private final String applicationId;

  private final FixCommands fixes;

  private final InternalTopicChecks internal;

  /** Checks of {@code views}, window changelogs kept {@code additionalRetentionMs} longer. */
  public ViewTopicChecks(
      Collection<ResolvedView<?, ?, ?>> views,
      String applicationId,
      long additionalRetentionMs,
      String bootstrapServers) {
    this.views = List.copyOf(views);
    this.applicationId = applicationId;
    FixCommands fixes = new FixCommands(bootstrapServers, applicationId, viewsBySource().keySet());
    this.fixes = fixes;
    this.internal = new InternalTopicChecks(applicationId, additionalRetentionMs, fixes);
  }

  /** Every topic the checks need to know about. */
  public Set<String> topics() {
    Set<String> topics = sourceTopics();
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
    viewsBySource().forEach((source, names) -> checkSource(source, names, topics, problems));
    for (ResolvedView<?, ?, ?> view : this.views) {
      OptionalInt sourcePartitions = topics.partitions(view.sourceTopic());
      if (sourcePartitions.isPresent()) {
        this.internal.checkRepartition(view, sourcePartitions.getAsInt(), topics, problems);
        this.internal.checkChangelog(view, sourcePartitions.getAsInt(), topics, problems);
      }
    }
    return problems;
  }

  /** Adds a problem when {@code source} is missing, naming close topics and how to create it. */
  private void checkSource(
      String source, List<String> viewNames, TopicSnapshot topics, List<TopicProblem> problems) {
    if (topics.exists(source)) {
      return;
    }
    List<String> suggestions = TopicSuggestions.closeTo(source, topics.names());
    problems.add(
        new TopicProblem(
            source,
            "Source topic '"
                + source
                + "' of "
                + (viewNames.size() == 1 ? "view " : "views ")
                + quoted(viewNames, ", ")
                + " does not exist, so Kafka Streams cannot read it."
                + (suggestions.isEmpty() ? "" : " Did you mean " + alternatives(suggestions) + "?"),
            "create it with "
                + this.fixes.createTopic(source)
                + ", or declare it as a bean, which Spring Boot's KafkaAdmin creates at start-up: "
                + this.fixes.newTopicBean(source)));
  }

  private static String quoted(List<String> names, String separator) {
    return names.stream().map(name -> "'" + name + "'").collect(Collectors.joining(separator));
  }

  private static String alternatives(List<String> topics) {
    int last = topics.size() - 1;
    return (last == 0)
        ? quoted(topics, ", ")
        : quoted(topics.subList(0, last), ", ")
            + " or "
            + quoted(topics.subList(last, last + 1), "");
  }

  private Map<String, List<String>> viewsBySource() {
    Map<String, List<String>> bySource = new LinkedHashMap<>();
    for (ResolvedView<?, ?, ?> view : this.views) {
      bySource.computeIfAbsent(view.sourceTopic(), (topic) -> new ArrayList<>()).add(view.name());
    }
    return bySource;
  }
}
