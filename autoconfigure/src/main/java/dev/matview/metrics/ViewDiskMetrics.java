package dev.matview.metrics;

import dev.matview.disk.StateDirSpace;
import dev.matview.disk.StoreDiskUsage;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;

/** Gauges each view's live SST bytes here and the state dir's free space. */
public final class ViewDiskMetrics implements MeterBinder {

  /** Bytes of a view's live SST files over its partitions open on this instance. */
  public static final String USED = "matview.disk.used";

  /** Bytes this process may still write on the state dir's file system. */
  public static final String FREE = "matview.disk.free";

  private final ViewRegistry views;

  private final StoreDiskUsage usage;

  private final StateDirSpace space;

  /** Gauges the views of {@code views} by {@code usage}, and the free {@code space}. */
  public ViewDiskMetrics(ViewRegistry views, StoreDiskUsage usage, StateDirSpace space) {
    this.views = views;
    this.usage = usage;
    this.space = space;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    for (ResolvedView<?, ?, ?> view : this.views.all()) {
      String store = view.storeName();
      Gauge.builder(USED, this.usage, (usage) -> usage.bytes(store))
          .tag("view", view.name())
          .baseUnit(BaseUnits.BYTES)
          .description("Bytes of a view's live RocksDB SST files on this instance")
          .register(registry);
    }
    Gauge.builder(FREE, this.space, StateDirSpace::usableBytes)
        .baseUnit(BaseUnits.BYTES)
        .description("Bytes still free on the disk of Kafka Streams' state dir")
        .register(registry);
  }
}
