package dev.matview.check;

import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewWindow;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * How many RocksDB stores one instance opens when it holds every partition of every view, as it
 * does alone or after the others fail: one per partition of a table view, and one per live segment
 * for each partition of a windowed or session view.
 */
public final class StorePlan {

  /** Kafka Streams' shortest segment of a window or session store. */
  private static final Duration MIN_SEGMENT_INTERVAL = Duration.ofMinutes(1);

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

  /**
   * The stores one partition of a view opens: one for a table; for a windowed or session view the
   * live segments of Kafka Streams' default segment interval, half the retention but at least a
   * minute.
   */
  static long storesPerPartition(@Nullable ViewWindow window) {
    if (window == null) {
      return 1;
    }
    Duration retention = window.effectiveRetention();
    Duration half = retention.dividedBy(2);
    Duration interval = half.compareTo(MIN_SEGMENT_INTERVAL) > 0 ? half : MIN_SEGMENT_INTERVAL;
    return retention.toMillis() / interval.toMillis() + 1;
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
