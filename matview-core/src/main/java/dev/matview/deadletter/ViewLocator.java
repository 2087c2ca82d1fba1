package dev.matview.deadletter;

import dev.matview.topology.ProcessorNames;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** Finds the view that a failed record belongs to, from the processor or topic where it failed. */
public final class ViewLocator {

  private final Map<String, Step> processors = new HashMap<>();

  private final Map<String, List<String>> topics = new HashMap<>();

  private final Map<String, String> written = new HashMap<>();

  private final Set<String> changelogs = new HashSet<>();

  private ViewLocator() {}

  /** A locator of the processors and topics of the views of {@code registry}. */
  public static ViewLocator of(ViewRegistry registry) {
    ViewLocator locator = new ViewLocator();
    for (ResolvedView<?, ?, ?> view : registry.all()) {
      String name = view.name();
      locator.processors.put(
          ProcessorNames.decoder(name), new Step(name, DeadLetterReason.DESERIALIZATION));
      locator.processors.put(
          ProcessorNames.aggregator(name), new Step(name, DeadLetterReason.AGGREGATION));
      locator.topics.computeIfAbsent(view.sourceTopic(), topic -> new ArrayList<>()).add(name);
      locator.processors.put(ProcessorNames.lateGate(name), new Step(name, DeadLetterReason.LATE));
      locator.written.put(view.changelogTopic(registry.applicationId()), name);
      locator.changelogs.add(view.changelogTopic(registry.applicationId()));
      String repartitionTopic = view.repartitionTopic(registry.applicationId());
      if (repartitionTopic != null) {
        locator.processors.put(
            ProcessorNames.lateGate(name), new Step(name, DeadLetterReason.LATE));
        locator.written.put(repartitionTopic, name);
        locator.processors.put(
            ProcessorNames.keySelector(name), new Step(name, DeadLetterReason.GROUPING));
        locator.processors.put(
            ProcessorNames.repartitionedDecoder(name),
            new Step(name, DeadLetterReason.DESERIALIZATION));
        locator.topics.computeIfAbsent(repartitionTopic, topic -> new ArrayList<>()).add(name);
      }
    }
    return locator;
  }

  /** The view and step of {@code processor}, or null when it belongs to no view. */
  public @Nullable Step processor(String processor) {
    return this.processors.get(processor);
  }

  /** The views that read {@code topic}, in declaration order; empty when none does. */
  public List<String> viewsReading(String topic) {
    return this.topics.getOrDefault(topic, List.of());
  }

  /** The view that writes {@code topic} (its repartition or changelog topic), or null. */
  public @Nullable String viewWriting(String topic) {
    return this.written.get(topic);
  }

  /** Whether {@code topic} is the changelog topic of a view's store. */
  public boolean isChangelog(String topic) {
    return this.changelogs.contains(topic);
  }

  /** A view's processor, and the reason a record that fails there is a dead letter. */
  public record Step(String view, DeadLetterReason reason) {}
}
