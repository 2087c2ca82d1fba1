package dev.matview.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.disk.StateDirSpace;
import dev.matview.disk.StoreDiskUsage;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.view.ViewDefinition;
import dev.matview.view.Views;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/** Tests for {@link ViewDiskMetrics}. */
class ViewDiskMetricsTests {

  @TempDir Path stateDir;

  private final Map<MetricName, Metric> streamsMetrics = new LinkedHashMap<>();

  @Test
  void gaugesEachViewsLiveSstBytesAndTheStateDirsFreeSpace() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new ViewDiskMetrics(
            views(),
            new StoreDiskUsage(() -> this.streamsMetrics),
            new StateDirSpace(this.stateDir))
        .bindTo(registry);
    assertThat(registry.get("matview.disk.used").tag("view", "orders").gauge().value()).isZero();
    liveSstBytes("orders", "0_0", 4096);
    liveSstBytes("orders", "0_1", 1024);
    assertThat(registry.get("matview.disk.used").tag("view", "orders").gauge().value())
        .isEqualTo(5120);
    assertThat(registry.get("matview.disk.used").tag("view", "refunds").gauge().value()).isZero();
    assertThat(registry.get("matview.disk.used").gauges()).hasSize(2);
    assertThat(registry.get("matview.disk.free").gauge().value()).isPositive();
    assertThat(registry.get("matview.disk.free").gauge().getId().getBaseUnit()).isEqualTo("bytes");
  }

  private void liveSstBytes(String store, String task, long bytes) {
    MetricName name =
        new MetricName(
            "live-sst-files-size",
            "stream-state-metrics",
            "",
            Map.of("thread-id", "t", "task-id", task, "rocksdb-state-id", store));
    this.streamsMetrics.put(
        name,
        new Metric() {
          @Override
          public MetricName metricName() {
            return name;
          }

          @Override
          public Object metricValue() {
            return BigInteger.valueOf(bytes);
          }
        });
  }

  private static ViewRegistry views() {
    Map<String, ViewDefinition<?, ?, ?>> views = new LinkedHashMap<>();
    views.put("orders", Views.from("orders", Order.class).count());
    views.put("refunds", Views.from("refunds", Order.class).count());
    return ViewRegistry.of(views, new ViewSerdes(JsonMapper.builder().build()), "app");
  }

  record Order(String customer) {}
}
