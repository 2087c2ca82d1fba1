package dev.matview.actuate;

import dev.matview.actuate.MatviewsDescriptor.DiskDescriptor;
import dev.matview.actuate.MatviewsDescriptor.InstanceDescriptor;
import dev.matview.actuate.MatviewsDescriptor.LagDescriptor;
import dev.matview.actuate.MatviewsDescriptor.LookupsDescriptor;
import dev.matview.actuate.MatviewsDescriptor.MemoryDescriptor;
import dev.matview.actuate.MatviewsDescriptor.RouteDescriptor;
import dev.matview.actuate.MatviewsDescriptor.ViewDescriptor;
import dev.matview.actuate.MatviewsDescriptor.WindowDescriptor;
import dev.matview.deadletter.DeadLetterCounts;
import dev.matview.disk.StoreDiskUsage;
import dev.matview.health.DiskPressure;
import dev.matview.health.PartitionLag;
import dev.matview.health.RestoreLagTracker;
import dev.matview.metrics.LookupActivity;
import dev.matview.query.routing.InstancePartitions;
import dev.matview.query.routing.ViewInstances;
import dev.matview.rocksdb.SharedRocksDBMemory;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.view.ViewWindow;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The actuator endpoint {@code matviews}, read from this instance's own state alone, with no call
 * to the broker or another instance.
 */
@Endpoint(id = "matviews")
public final class MatviewsEndpoint {

  private final ViewRegistry views;

  private final Supplier<@Nullable String> topology;

  private final ViewInstances instances;

  private final RestoreLagTracker tracker;

  private final StoreDiskUsage diskUsage;

  private final DiskPressure disk;

  private final Activity activity;

  /** Describes {@code views}, {@code topology}, {@code instances}, lags, disk and activity. */
  public MatviewsEndpoint(
      ViewRegistry views,
      Supplier<@Nullable String> topology,
      ViewInstances instances,
      RestoreLagTracker tracker,
      StoreDiskUsage diskUsage,
      DiskPressure disk,
      Activity activity) {
    this.views = views;
    this.topology = topology;
    this.instances = instances;
    this.tracker = tracker;
    this.diskUsage = diskUsage;
    this.disk = disk;
    this.activity = activity;
  }

  /** Describes the views on this instance and in the cluster now. */
  @ReadOperation
  public MatviewsDescriptor matviews() {
    Map<String, Long> diskBytes = this.diskUsage.bytesByStore();
    DiskPressure.Report disk = this.disk.report();
    DeadLetterCounts deadLetters = this.activity.deadLetters();
    return new MatviewsDescriptor(
        this.views.all().stream().map((view) -> view(view, diskBytes)).toList(),
        this.topology.get(),
        this.instances.all().stream().map(MatviewsEndpoint::instance).toList(),
        this.tracker.snapshot().stream().map(MatviewsEndpoint::lag).toList(),
        memory(SharedRocksDBMemory.all()),
        new DiskDescriptor(disk.stateDir(), disk.freeBytes(), disk.minFreeBytes()),
        this.activity.lookupBasePath(),
        lookups(this.activity.lookups()),
        (deadLetters != null) ? deadLetters.byView() : Map.of());
  }

  private ViewDescriptor view(ResolvedView<?, ?, ?> view, Map<String, Long> diskBytes) {
    String applicationId = this.views.applicationId();
    return new ViewDescriptor(
        view.name(),
        view.kind().label(),
        view.definition().keyType().getSimpleName(),
        view.definition().aggregateType().getSimpleName(),
        window(view.window()),
        view.storeName(),
        view.sourceTopic(),
        view.repartitionTopic(applicationId),
        view.changelogTopic(applicationId),
        diskBytes.getOrDefault(view.storeName(), 0L));
  }

  private static InstanceDescriptor instance(InstancePartitions instance) {
    return new InstanceDescriptor(
        instance.describe(), instance.local(), instance.active(), instance.standby());
  }

  private static LagDescriptor lag(PartitionLag lag) {
    return new LagDescriptor(
        lag.store(),
        lag.partition(),
        lag.role().label(),
        lag.startOffset(),
        lag.currentOffset(),
        lag.lagKnown() ? lag.endOffset() : null,
        lag.lagKnown() ? lag.lag() : null,
        Math.round(lag.recordsPerSecond()),
        lag.etaSeconds());
  }

  private static @Nullable MemoryDescriptor memory(Collection<SharedRocksDBMemory> pools) {
    if (pools.isEmpty()) {
      return null;
    }
    return new MemoryDescriptor(
        pools.stream().mapToLong(SharedRocksDBMemory::usedBytes).sum(),
        pools.stream().mapToLong(SharedRocksDBMemory::boundBytes).sum(),
        pools.stream().mapToInt(SharedRocksDBMemory::openStores).sum());
  }

  private static @Nullable WindowDescriptor window(@Nullable ViewWindow window) {
    if (window == null) {
      return null;
    }
    return new WindowDescriptor(
        window.type().name().toLowerCase(Locale.ROOT),
        window.size(),
        window.advance(),
        window.grace(),
        window.effectiveRetention());
  }

  private static @Nullable LookupsDescriptor lookups(@Nullable LookupActivity activity) {
    if (activity == null) {
      return null;
    }
    Map<String, RouteDescriptor> routes = new LinkedHashMap<>();
    activity
        .history()
        .forEach(
            (route, buckets) ->
                routes.put(
                    route,
                    new RouteDescriptor(
                        buckets.stream().map(LookupActivity.Bucket::count).toList(),
                        buckets.stream().map(MatviewsEndpoint::meanMillis).toList())));
    return new LookupsDescriptor(activity.bucket().toMillis(), routes);
  }

  private static Double meanMillis(LookupActivity.Bucket bucket) {
    return (bucket.count() == 0) ? 0.0 : bucket.nanos() / 1e6 / bucket.count();
  }

  /** What the endpoint shows besides Kafka Streams and the disk, null when off or not counted. */
  public record Activity(
      @Nullable String lookupBasePath,
      @Nullable LookupActivity lookups,
      @Nullable DeadLetterCounts deadLetters) {

    /** Nothing besides. */
    public static final Activity NONE = new Activity(null, null, null);
  }
}
