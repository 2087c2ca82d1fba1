package dev.matview.topology;

import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewKind;
import dev.matview.view.ViewWindow;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

/**
 * A named view with the serdes it reads and stores with, and the names of its store and topics.
 *
 * @param name the view's name, also its store's name
 * @param sourceKeySerde reads the source topic's record keys
 * @param valueSerde reads the source topic's record values
 * @param keySerde writes the view's keys
 * @param aggregateSerde writes the view's values
 */
public record ResolvedView<K, V, A>(
    String name,
    ViewDefinition<K, V, A> definition,
    Serde<?> sourceKeySerde,
    Serde<V> valueSerde,
    Serde<K> keySerde,
    Serde<A> aggregateSerde) {

  /** The name of the view's state store. */
  public String storeName() {
    return this.name;
  }

  /** The compacted topic the store is mirrored to, named as Kafka Streams names it. */
  public String changelogTopic(String applicationId) {
    return applicationId + "-" + storeName() + "-changelog";
  }

  /** The repartition topic of a re-keyed view, or {@code null}. */
  public @Nullable String repartitionTopic(String applicationId) {
    return this.definition.isRekeyed() ? applicationId + "-" + this.name + "-repartition" : null;
  }

  /**
   * The topic whose partitions feed the view's store partitions: its repartition topic when it is
   * re-keyed, else its source topic.
   */
  public String inputTopic(String applicationId) {
    String repartition = repartitionTopic(applicationId);
    return (repartition != null) ? repartition : sourceTopic();
  }

  /** The view's kind. */
  public ViewKind kind() {
    return this.definition.kind();
  }

  /** The view's window, or {@code null}. */
  public @Nullable ViewWindow window() {
    return this.definition.window();
  }

  /** The view's source topic. */
  public String sourceTopic() {
    return this.definition.source().topic();
  }

  /**
   * {@code key} as the view's store keeps it, serialized for {@code topic}, the store's changelog
   * topic; throws {@link IllegalArgumentException} when the key serde gives {@code null}.
   */
  public byte[] serializedKey(String topic, K key) {
    byte[] bytes = this.keySerde.serializer().serialize(topic, key);
    if (bytes == null) {
      throw new IllegalArgumentException("View '" + this.name + "' serialized a key as null");
    }
    return bytes;
  }
}
