package dev.matview.check;

import dev.matview.topology.ResolvedView;
import dev.matview.topology.WindowSegments;
import dev.matview.view.ViewWindow;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * How many RocksDB stores one instance opens when it holds every partition of every view, as it
 * does alone or after the others fail.
 */
public final class StorePlan {

  private final Map<String, Long> storesByView;

  private StorePlan(Map<String, Long> storesByView) {
    this.storesByView = Collections.unmodifiableMap(new LinkedHashMap<>(storesByView));
  }

  /** The plan for {@code views}, with partition counts from {@code topics}. */
  public static StorePlan of(Collection<ResolvedView<?, ?, ?>> views, TopicSnapshot topics) {
    Map<String, Long> stores = new LinkedHashMap<>();
    for (ResolvedView<?, ?, ?> view : views) {
      OptionalInt partitions = topics.partitions(view.sourceTopic());
      if (partitions.isPresent()) {
        stores.put(view.name(), partitions.getAsInt() * storesPerPartition(view.window()));
      }
    }
    return new StorePlan(stores);
  }

  /** The stores of one partition: one for a table, else its window store's live segments. */
  static long storesPerPartition(@Nullable ViewWindow window) {
    return window == null ? 1 : WindowSegments.live(window);
  }

  /** The stores of all views. */
  public long totalStores() {
    return this.storesByView.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Each view's stores, in the views' order. */
  public Map<String, Long> storesByView() {
    return this.storesByView;
  }
}
