package dev.matview.health;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code matview} health: {@code UP} when the views can be served and the state dir has room,
 * {@code OUT_OF_SERVICE} while they cannot or the disk is short, {@code DOWN} when Kafka Streams
 * failed or stopped; RocksDB's memory overshoot is a reason in the details, not a status, as
 * lookups still work.
 */
public final class MatviewHealthIndicator implements HealthIndicator {

  /** Shown as the state while Kafka Streams has not been created or started. */
  public static final String NOT_STARTED = "NOT_STARTED";

  private final StreamsHealth health;

  private final DiskPressure disk;

  private final MemoryPressure memory;

  /** Reports the judgements of {@code health}, {@code disk} and {@code memory}. */
  public MatviewHealthIndicator(StreamsHealth health, DiskPressure disk, MemoryPressure memory) {
    this.health = health;
    this.disk = disk;
    this.memory = memory;
  }

  @Override
  public Health health() {
    StreamsHealth.Report report = this.health.report();
    DiskPressure.Report disk = this.disk.report();
    Health.Builder builder =
        switch (report.condition()) {
          case SERVING -> disk.low() ? Health.outOfService() : Health.up();
          case NOT_SERVING -> Health.outOfService();
          case FAILED -> Health.down();
        };
    builder.withDetail("state", (report.state() != null) ? report.state().name() : NOT_STARTED);
    MemoryPressure.Report memory = this.memory.report();
    String reason =
        Stream.of(report.reason(), disk.reason(), (memory != null) ? memory.reason() : null)
            .filter(Objects::nonNull)
            .collect(Collectors.joining("; "));
    if (!reason.isEmpty()) {
      builder.withDetail("reason", reason);
    }
    builder.withDetail("maxRestoreLag", this.health.maxRestoreLag());
    builder.withDetail("disk", disk(disk));
    if (memory != null) {
      builder.withDetail("rocksdb", memory(memory));
    }
    builder.withDetail("views", views(report));
    return builder.build();
  }

  private static Map<String, Object> disk(DiskPressure.Report disk) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("stateDir", disk.stateDir());
    details.put("freeBytes", disk.freeBytes());
    details.put("minFreeBytes", disk.minFreeBytes());
    return details;
  }

  private static Map<String, Object> memory(MemoryPressure.Report memory) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("usedBytes", memory.usedBytes());
    details.put("boundBytes", memory.boundBytes());
    details.put("pinnedBytes", memory.pinnedBytes());
    details.put("overshootBytes", memory.overshootBytes());
    details.put("openStores", memory.openStores());
    return details;
  }

  private static Map<String, Map<String, Map<String, Object>>> views(StreamsHealth.Report report) {
    Map<String, Map<String, Map<String, Object>>> views = new LinkedHashMap<>();
    for (PartitionLag lag : report.partitions()) {
      Map<String, Object> partition = new LinkedHashMap<>();
      partition.put("role", lag.role().label());
      partition.put("currentOffset", lag.currentOffset());
      partition.put("endOffset", lag.lagKnown() ? lag.endOffset() : null);
      partition.put("lag", lag.lagKnown() ? lag.lag() : null);
      partition.put("recordsPerSecond", Math.round(lag.recordsPerSecond()));
      Long eta = lag.etaSeconds();
      if (eta != null) {
        partition.put("etaSeconds", eta);
      }
      views
          .computeIfAbsent(lag.store(), (store) -> new LinkedHashMap<>())
          .put(String.valueOf(lag.partition()), partition);
    }
    return views;
  }
}
