package dev.matview.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.health.RestoreLagTracker;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StandbyUpdateListener.SuspendReason;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

/** Tests for {@link ViewLagMetrics}. */
class ViewLagMetricsTests {

  private static final TopicPartition CHANGELOG_0 = new TopicPartition("app-orders-changelog", 0);

  private static final TopicPartition CHANGELOG_1 = new TopicPartition("app-orders-changelog", 1);

  private final RestoreLagTracker tracker = new RestoreLagTracker();

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @Test
  void gaugesTheRestoreLagOfEachActivePartitionTaggedByViewAndPartition() {
    new ViewLagMetrics(this.tracker).bindTo(this.registry);
    this.tracker.onRestoreStart(CHANGELOG_0, "orders", 0, 1000);
    this.tracker.onBatchRestored(CHANGELOG_0, "orders", 399, 400);
    assertThat(gauge("matview.restore.lag", 0).value()).isEqualTo(600);
    this.tracker.onRestoreEnd(CHANGELOG_0, "orders", 1000);
    assertThat(gauge("matview.restore.lag", 0).value()).isZero();
  }

  @Test
  void gaugesPartitionsTrackedBeforeBinding() {
    this.tracker.onUpdateStart(CHANGELOG_1, "orders", 0);
    this.tracker.onBatchLoaded(CHANGELOG_1, "orders", new TaskId(0, 1), 99, 100, 149);
    new ViewLagMetrics(this.tracker).bindTo(this.registry);
    assertThat(gauge("matview.standby.lag", 1).value()).isEqualTo(50);
  }

  @Test
  void gaugesNoValueForAStandbyWhoseChangelogEndIsNotKnownYet() {
    new ViewLagMetrics(this.tracker).bindTo(this.registry);
    this.tracker.onUpdateStart(CHANGELOG_1, "orders", 40);
    assertThat(gauge("matview.standby.lag", 1).value()).isNaN();
    this.tracker.reported("orders", 1, 40, 45);
    assertThat(gauge("matview.standby.lag", 1).value()).isEqualTo(5);
  }

  @Test
  void removesTheGaugeOfAPartitionThatMovedAwayOrChangedRole() {
    new ViewLagMetrics(this.tracker).bindTo(this.registry);
    this.tracker.onRestoreStart(CHANGELOG_0, "orders", 0, 1000);
    this.tracker.onRestoreSuspended(CHANGELOG_0, "orders", 0);
    assertThat(this.registry.find("matview.restore.lag").gauges()).isEmpty();
    this.tracker.onUpdateStart(CHANGELOG_1, "orders", 0);
    this.tracker.onUpdateSuspended(CHANGELOG_1, "orders", 0, 0, SuspendReason.PROMOTED);
    this.tracker.onRestoreStart(CHANGELOG_1, "orders", 0, 10);
    assertThat(this.registry.find("matview.standby.lag").gauges()).isEmpty();
    assertThat(gauge("matview.restore.lag", 1).value()).isEqualTo(10);
  }

  private Gauge gauge(String name, int partition) {
    return this.registry
        .get(name)
        .tag("view", "orders")
        .tag("partition", String.valueOf(partition))
        .gauge();
  }
}
