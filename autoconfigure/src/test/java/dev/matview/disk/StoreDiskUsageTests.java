package dev.matview.disk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.replica.StoreHandles;
import dev.matview.topology.RecordRules;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.topology.ViewTopologyBuilder;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import dev.matview.view.Views;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tests for {@link StoreDiskUsage}: on real RocksDB stores of every view kind, run by Kafka
 * Streams' {@link TopologyTestDriver} (which commits, and so flushes the stores to SST files, after
 * each record), Kafka's measured by its metrics and the table views' by Matview's own stores, and
 * on metrics made up to show what is summed and what is left out.
 */
class StoreDiskUsageTests {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path stateDir;

  @Test
  void readsTheLiveSstBytesOfTableWindowedAndSessionStores() {
    JsonMapper mapper = JsonMapper.builder().build();
    Map<String, ViewDefinition<?, ?, ?>> views = new LinkedHashMap<>();
    views.put("clicks", Views.from("clicks", Click.class).count());
    views.put(
        "clicks-per-minute",
        Views.from("clicks", Click.class)
            .windowedBy(ViewWindow.tumbling(Duration.ofMinutes(1)))
            .count());
    views.put(
        "click-sessions",
        Views.from("clicks", Click.class)
            .windowedBy(ViewWindow.session(Duration.ofMinutes(5)))
            .count());
    StreamsBuilder builder = new StreamsBuilder();
    StoreHandles handles = new StoreHandles();
    new ViewTopologyBuilder(builder, RecordRules.STANDARD, handles)
        .addAll(ViewRegistry.of(views, new ViewSerdes(mapper), "app"));
    Properties config = new Properties();
    config.put(StreamsConfig.APPLICATION_ID_CONFIG, "app");
    config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    config.put(StreamsConfig.STATE_DIR_CONFIG, this.stateDir.toString());
    try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), config)) {
      StoreDiskUsage usage = new StoreDiskUsage(driver::metrics, handles::tableStoreBytes);
      assertThat(usage.bytes("clicks")).isZero();
      TestInputTopic<String, String> clicks =
          driver.createInputTopic("clicks", new StringSerializer(), new StringSerializer());
      for (int i = 0; i < 20; i++) {
        clicks.pipeInput("page-" + i, mapper.writeValueAsString(new Click("page-" + i)), T0);
      }
      Map<String, Long> bytes = usage.bytesByStore();
      assertThat(bytes).containsOnlyKeys("clicks", "clicks-per-minute", "click-sessions");
      assertThat(bytes.values()).allSatisfy((size) -> assertThat(size).isPositive());
      assertThat(usage.bytes("clicks")).isEqualTo(bytes.get("clicks"));
      assertThat(usage.bytes("no-such-view")).isZero();
    }
  }

  @Test
  void sumsAStoresPartitionsAndLeavesOutOtherMetricsAndUnreadableOnes() {
    Map<MetricName, Metric> metrics = new LinkedHashMap<>();
    add(metrics, "live-sst-files-size", "stream-state-metrics", "0_0", "rocksdb", "orders", 100);
    add(metrics, "live-sst-files-size", "stream-state-metrics", "0_1", "rocksdb", "orders", 50);
    add(metrics, "live-sst-files-size", "stream-state-metrics", "1_0", "rocksdb-window", "w", 7);
    add(metrics, "total-sst-files-size", "stream-state-metrics", "0_0", "rocksdb", "orders", 999);
    add(metrics, "live-sst-files-size", "other-metrics", "0_0", "rocksdb", "orders", 999);
    MetricName failing =
        name("live-sst-files-size", "stream-state-metrics", "0_2", "rocksdb", "orders");
    metrics.put(failing, new FixedMetric(failing, null));
    StoreDiskUsage usage = new StoreDiskUsage(() -> metrics);
    assertThat(usage.bytesByStore()).containsExactly(Map.entry("orders", 150L), Map.entry("w", 7L));
    assertThat(usage.bytes("orders")).isEqualTo(150);
  }

  @Test
  void addsTheBytesOfTheStoresNoMetricMeasures() {
    Map<MetricName, Metric> metrics = new LinkedHashMap<>();
    add(metrics, "live-sst-files-size", "stream-state-metrics", "1_0", "rocksdb-window", "w", 7);
    StoreDiskUsage usage = new StoreDiskUsage(() -> metrics, () -> Map.of("orders", 150L));
    assertThat(usage.bytesByStore()).containsExactly(Map.entry("orders", 150L), Map.entry("w", 7L));
    assertThat(usage.bytes("orders")).isEqualTo(150);
    assertThat(usage.bytes("w")).isEqualTo(7);
  }

  private static void add(
      Map<MetricName, Metric> metrics,
      String name,
      String group,
      String task,
      String scope,
      String store,
      long bytes) {
    MetricName metricName = name(name, group, task, scope, store);
    metrics.put(metricName, new FixedMetric(metricName, BigInteger.valueOf(bytes)));
  }

  private static MetricName name(
      String name, String group, String task, String scope, String store) {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put("thread-id", "app-StreamThread-1");
    tags.put("task-id", task);
    tags.put(scope + "-state-id", store);
    return new MetricName(name, group, "", tags);
  }

  /** A metric with a fixed value, or one whose reading fails when the value is null. */
  private record FixedMetric(MetricName metricName, BigInteger value) implements Metric {

    @Override
    public Object metricValue() {
      if (this.value == null) {
        throw new IllegalStateException("closed");
      }
      return this.value;
    }
  }

  record Click(String page) {}
}
