package dev.matview.query.local;

import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The topic that Kafka Streams names when it serializes each store's keys and values: the store's
 * changelog topic, which a topic-aware serde (a schema registry's, say) may write differently.
 */
final class StoreTopics implements Function<ResolvedView<?, ?, ?>, String> {

  /** Topics of no store. */
  static final StoreTopics NONE = new StoreTopics(Map.of());

  private final Map<String, String> byStore;

  private StoreTopics(Map<String, String> byStore) {
    this.byStore = byStore;
  }

  /** The topics of the stores of every view in {@code registry}. */
  static StoreTopics of(ViewRegistry registry) {
    Map<String, String> topics = new HashMap<>();
    for (ResolvedView<?, ?, ?> view : registry.all()) {
      topics.put(view.storeName(), view.changelogTopic(registry.applicationId()));
    }
    return new StoreTopics(Map.copyOf(topics));
  }

  /** The topic of {@code view}'s store; an IllegalStateException for a view not read here. */
  @Override
  public String apply(ResolvedView<?, ?, ?> view) {
    String topic = this.byStore.get(view.storeName());
    if (topic == null) {
      throw new IllegalStateException(
          "View '" + view.name() + "' is not one of the views whose stores this instance reads");
    }
    return topic;
  }
}
