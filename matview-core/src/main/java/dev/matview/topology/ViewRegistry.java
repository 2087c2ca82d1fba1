package dev.matview.topology;

import dev.matview.view.ViewDefinition;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serde;

/** The application's views by name, validated and with their serdes resolved. */
public final class ViewRegistry {

  private final Map<String, ResolvedView<?, ?, ?>> views;

  private final String applicationId;

  private ViewRegistry(Map<String, ResolvedView<?, ?, ?>> views, String applicationId) {
    this.views = Collections.unmodifiableMap(views);
    this.applicationId = applicationId;
  }

  /**
   * Validates and resolves the given views, keyed by name, in the order given; throws {@link
   * InvalidViewException} when a definition cannot work.
   */
  public static ViewRegistry of(
      Map<String, ViewDefinition<?, ?, ?>> definitions, ViewSerdes serdes, String applicationId) {
    ViewValidator validator = new ViewValidator();
    Map<String, ResolvedView<?, ?, ?>> views = new LinkedHashMap<>();
    definitions.forEach(
        (name, definition) -> {
          validator.validate(name, definition);
          views.put(name, resolve(name, definition, serdes));
        });
    return new ViewRegistry(views, applicationId);
  }

  private static <K, V, A> ResolvedView<K, V, A> resolve(
      String name, ViewDefinition<K, V, A> definition, ViewSerdes serdes) {
    Serde<V> valueSerde = definition.source().valueSerde();
    Serde<A> aggregateSerde = definition.aggregateSerde();
    return new ResolvedView<>(
        name,
        definition,
        serdes.forType(definition.source().keyType()),
        valueSerde != null ? valueSerde : serdes.forType(definition.source().valueType()),
        serdes.forType(definition.keyType()),
        aggregateSerde != null ? aggregateSerde : serdes.forType(definition.aggregateType()));
  }

  /** The view named {@code name}, if there is one. */
  public Optional<ResolvedView<?, ?, ?>> find(String name) {
    return Optional.ofNullable(this.views.get(name));
  }

  /** Every view, in declaration order. */
  public Collection<ResolvedView<?, ?, ?>> all() {
    return this.views.values();
  }

  /** The Kafka Streams application id the views' topics are named after. */
  public String applicationId() {
    return this.applicationId;
  }
}
