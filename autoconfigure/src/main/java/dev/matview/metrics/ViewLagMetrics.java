package dev.matview.metrics;

import dev.matview.health.PartitionLag;
import dev.matview.health.RestoreLagTracker;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Gauges the restore lag of each active and the standby lag of each standby store partition here,
 * removed when the partition moves away or changes role.
 */
public final class ViewLagMetrics implements MeterBinder, RestoreLagTracker.Listener {

  /** Changelog offsets an active partition still has to restore, 0 once restored. */
  public static final String RESTORE_LAG = "matview.restore.lag";

  /** Changelog offsets a standby partition is behind, as of its last loaded batch. */
  public static final String STANDBY_LAG = "matview.standby.lag";

  private final RestoreLagTracker tracker;

  private final List<MeterRegistry> registries = new CopyOnWriteArrayList<>();

  /** Gauges the partitions {@code tracker} tracks. */
  public ViewLagMetrics(RestoreLagTracker tracker) {
    this.tracker = tracker;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    if (this.registries.isEmpty()) {
      this.tracker.addListener(this);
    }
    this.registries.add(registry);
    this.tracker.snapshot().forEach((partition) -> register(registry, partition));
  }

  @Override
  public void tracked(PartitionLag partition) {
    this.registries.forEach((registry) -> register(registry, partition));
  }

  @Override
  public void dropped(PartitionLag partition) {
    for (MeterRegistry registry : this.registries) {
      Gauge gauge = registry.find(name(partition)).tags(tags(partition)).gauge();
      if (gauge != null) {
        registry.remove(gauge);
      }
    }
  }

  private void register(MeterRegistry registry, PartitionLag partition) {
    String store = partition.store();
    int number = partition.partition();
    PartitionLag.Role role = partition.role();
    Gauge.builder(
            name(partition),
            this.tracker,
            (tracker) ->
                tracker
                    .lag(store, number)
                    .filter((lag) -> lag.role() == role && lag.lagKnown())
                    .map((lag) -> (double) lag.lag())
                    .orElse(Double.NaN))
        .tags(tags(partition))
        .baseUnit("offsets")
        .description(
            partition.isActive()
                ? "Changelog offsets an active store partition still has to restore"
                : "Changelog offsets a standby store partition is behind")
        .register(registry);
  }

  private static String name(PartitionLag partition) {
    return partition.isActive() ? RESTORE_LAG : STANDBY_LAG;
  }

  private static Tags tags(PartitionLag partition) {
    return Tags.of("view", partition.store(), "partition", String.valueOf(partition.partition()));
  }
}
