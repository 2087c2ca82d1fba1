package dev.matview.health;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The health of this instance's views: {@code UP} when they can be served, {@code OUT_OF_SERVICE}
 * while Kafka Streams starts, rebalances, restores beyond the bound or shuts down, {@code DOWN}
 * when it has failed or stopped; details show the state and every tracked partition's lag.
 */
public final class MatviewHealthIndicator implements HealthIndicator {

  /** Shown as the state while Kafka Streams has not been created or started. */
  public static final String NOT_STARTED = "NOT_STARTED";

  private final StreamsHealth health;

  /** Reports the judgement of {@code health}. */
  public MatviewHealthIndicator(StreamsHealth health) {
    this.health = health;
  }

  @Override
  public Health health() {
    StreamsHealth.Report report = this.health.report();
    Health.Builder builder =
        switch (report.condition()) {
          case SERVING -> Health.up();
          case NOT_SERVING -> Health.outOfService();
          case FAILED -> Health.down();
        };
    builder.withDetail("state", (report.state() != null) ? report.state().name() : NOT_STARTED);
    if (report.reason() != null) {
      builder.withDetail("reason", report.reason());
    }
    builder.withDetail("maxRestoreLag", this.health.maxRestoreLag());
    builder.withDetail("views", views(report));
    return builder.build();
  }

  private static Map<String, Map<String, Map<String, Object>>> views(StreamsHealth.Report report) {
    Map<String, Map<String, Map<String, Object>>> views = new LinkedHashMap<>();
    for (PartitionLag lag : report.partitions()) {
      Map<String, Object> partition = new LinkedHashMap<>();
      partition.put("role", lag.role().label());
      partition.put("currentOffset", lag.currentOffset());
      partition.put("endOffset", lag.endOffset());
      partition.put("lag", lag.lag());
      partition.put("recordsPerSecond", Math.round(lag.recordsPerSecond()));
      if (lag.eta() != null) {
        partition.put("etaSeconds", (lag.eta().toMillis() + 999) / 1000);
      }
      views
          .computeIfAbsent(lag.store(), (store) -> new LinkedHashMap<>())
          .put(String.valueOf(lag.partition()), partition);
    }
    return views;
  }
}
