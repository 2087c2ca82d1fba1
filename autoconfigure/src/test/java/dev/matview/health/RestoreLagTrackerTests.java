package dev.matview.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StandbyUpdateListener.SuspendReason;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** Tests for {@link RestoreLagTracker}, fed Kafka Streams' callbacks directly. */
@ExtendWith(OutputCaptureExtension.class)
class RestoreLagTrackerTests {

  private static final TopicPartition CHANGELOG_0 = new TopicPartition("app-orders-changelog", 0);

  private static final TopicPartition CHANGELOG_1 = new TopicPartition("app-orders-changelog", 1);

  private final AtomicLong nanos = new AtomicLong(TimeUnit.SECONDS.toNanos(1000));

  private final RestoreLagTracker tracker =
      new RestoreLagTracker(this.nanos::get, Duration.ofSeconds(5));

  @Test
  void tracksAnActivePartitionFromItsRestoreStartThroughItsBatches() {
    this.tracker.onRestoreStart(CHANGELOG_0, "orders", 0, 20_000);
    assertThat(lag(0).lag()).isEqualTo(20_000);
    assertThat(lag(0).eta()).isNull();
    advance(100);
    this.tracker.onBatchRestored(CHANGELOG_0, "orders", 999, 1000);
    PartitionLag lag = lag(0);
    assertThat(lag.role()).isEqualTo(PartitionLag.Role.ACTIVE);
    assertThat(lag.startOffset()).isZero();
    assertThat(lag.currentOffset()).isEqualTo(1000);
    assertThat(lag.endOffset()).isEqualTo(20_000);
    assertThat(lag.lag()).isEqualTo(19_000);
    assertThat(lag.records()).isEqualTo(1000);
    assertThat(lag.recordsPerSecond()).isEqualTo(10_000);
    assertThat(lag.eta()).isEqualTo(Duration.ofMillis(1900));
  }

  @Test
  void claimsNoLagForAStoreOpenedAnewUntilItsRestoreStarts() {
    this.tracker.onRestoreStart(CHANGELOG_0, "orders", 0, 100);
    this.tracker.onRestoreEnd(CHANGELOG_0, "orders", 100);
    assertThat(lag(0).lag()).isZero();

    this.tracker.storeOpened("orders", 0);

    assertThat(this.tracker.lag("orders", 0)).isEmpty();
    this.tracker.onRestoreStart(CHANGELOG_0, "orders", 0, 100);
    assertThat(lag(0).lag()).isEqualTo(100);
  }

  @Test
  void saysLagZeroOnceTheRestoreEndsThoughTheOffsetsNeverMeet() {
    this.tracker.onRestoreStart(CHANGELOG_0, "orders", 0, 100);
    advance(10);
    this.tracker.onBatchRestored(CHANGELOG_0, "orders", 97, 60);
    assertThat(lag(0).lag()).isEqualTo(2);
    this.tracker.onRestoreEnd(CHANGELOG_0, "orders", 60);
    assertThat(lag(0).lag()).isZero();
    assertThat(lag(0).eta()).isEqualTo(Duration.ZERO);
    assertThat(lag(0).currentOffset()).isEqualTo(98);
    assertThat(lag(0).records()).isEqualTo(60);
  }

  @Test
  void measuresTheRateOverTheLastSecondOnceASecondHasPassed() {
    this.tracker.onRestoreStart(CHANGELOG_0, "orders", 0, 100_000);
    advance(1000);
    this.tracker.onBatchRestored(CHANGELOG_0, "orders", 9_999, 10_000);
    assertThat(lag(0).recordsPerSecond()).isEqualTo(10_000);
    advance(500);
    this.tracker.onBatchRestored(CHANGELOG_0, "orders", 10_999, 1_000);
    assertThat(lag(0).recordsPerSecond()).isEqualTo(10_000);
    advance(500);
    this.tracker.onBatchRestored(CHANGELOG_0, "orders", 11_999, 1_000);
    PartitionLag lag = lag(0);
    assertThat(lag.recordsPerSecond()).isEqualTo(2_000);
    assertThat(lag.lag()).isEqualTo(88_000);
    assertThat(lag.eta()).isEqualTo(Duration.ofSeconds(44));
  }

  @Test
  void dropsAPartitionWhoseRestoreIsSuspended() {
    this.tracker.onRestoreStart(CHANGELOG_0, "orders", 0, 100);
    this.tracker.onRestoreStart(CHANGELOG_1, "orders", 0, 100);
    this.tracker.onBatchRestored(CHANGELOG_0, "orders", 49, 50);
    this.tracker.onRestoreSuspended(CHANGELOG_0, "orders", 50);
    assertThat(this.tracker.lag("orders", 0)).isEmpty();
    assertThat(this.tracker.snapshot()).extracting(PartitionLag::partition).containsExactly(1);
    this.tracker.onBatchRestored(CHANGELOG_0, "orders", 99, 50);
    assertThat(this.tracker.lag("orders", 0)).isEmpty();
  }

  @Test
  void tracksAStandbyFromTheEndOffsetsItsBatchesReport() {
    this.tracker.onUpdateStart(CHANGELOG_1, "orders", 500);
    assertThat(lag(1).lagKnown()).as("no batch, no report: the end is not known").isFalse();
    assertThat(lag(1).lag()).isEqualTo(PartitionLag.UNKNOWN);
    assertThat(lag(1).endOffset()).isEqualTo(PartitionLag.UNKNOWN);
    assertThat(lag(1).eta()).isNull();
    advance(100);
    this.tracker.onBatchLoaded(CHANGELOG_1, "orders", new TaskId(0, 1), 799, 300, 999);
    PartitionLag lag = lag(1);
    assertThat(lag.role()).isEqualTo(PartitionLag.Role.STANDBY);
    assertThat(lag.currentOffset()).isEqualTo(800);
    assertThat(lag.endOffset()).isEqualTo(1000);
    assertThat(lag.lag()).isEqualTo(200);
    assertThat(lag.eta()).isEqualTo(Duration.ofMillis(67));
    this.tracker.onBatchLoaded(CHANGELOG_1, "orders", new TaskId(0, 1), 999, 200, 999);
    assertThat(lag(1).lag()).isZero();
    this.tracker.onUpdateSuspended(CHANGELOG_1, "orders", 999, 999, SuspendReason.MIGRATED);
    assertThat(this.tracker.lag("orders", 1)).isEmpty();
  }

  @Test
  void learnsAStandbysEndAndAnActivesLiveOffsetsFromKafkaStreamsLagReports() {
    this.tracker.onUpdateStart(CHANGELOG_1, "orders", 500);
    this.tracker.reported("orders", 1, 700, 750);
    PartitionLag standby = lag(1);
    assertThat(standby.currentOffset()).isEqualTo(700);
    assertThat(standby.endOffset()).isEqualTo(750);
    assertThat(standby.lag()).isEqualTo(50);

    this.tracker.onRestoreStart(CHANGELOG_0, "orders", 0, 100);
    this.tracker.onRestoreEnd(CHANGELOG_0, "orders", 100);
    this.tracker.reported("orders", 0, 400, 400);
    PartitionLag active = lag(0);
    assertThat(active.currentOffset()).isEqualTo(400);
    assertThat(active.endOffset()).isEqualTo(400);
    assertThat(active.lag()).isZero();

    this.tracker.reported("orders", 0, 300, 390);
    assertThat(lag(0).currentOffset()).as("offsets only move forward").isEqualTo(400);
    this.tracker.reported("orders", 2, 10, 20);
    assertThat(this.tracker.lag("orders", 2))
        .as("an untracked partition's role is unknown")
        .isEmpty();
  }

  @Test
  void turnsAPromotedStandbyIntoARestoringActive() {
    this.tracker.onUpdateStart(CHANGELOG_0, "orders", 0);
    this.tracker.onBatchLoaded(CHANGELOG_0, "orders", new TaskId(0, 0), 899, 900, 899);
    this.tracker.onUpdateSuspended(CHANGELOG_0, "orders", 899, 899, SuspendReason.PROMOTED);
    this.tracker.onRestoreStart(CHANGELOG_0, "orders", 900, 1000);
    PartitionLag lag = lag(0);
    assertThat(lag.role()).isEqualTo(PartitionLag.Role.ACTIVE);
    assertThat(lag.lag()).isEqualTo(100);
    assertThat(lag.records()).isZero();
  }

  @Test
  void updatesOnlyTheBatchsPartitionWithConstantWorkAmongManyPartitions() {
    AtomicLong clockReads = new AtomicLong();
    RestoreLagTracker counting =
        new RestoreLagTracker(
            () -> {
              clockReads.incrementAndGet();
              return this.nanos.get();
            },
            Duration.ofDays(1));
    for (int partition = 0; partition < 10_000; partition++) {
      counting.onRestoreStart(changelog(partition), "orders", 0, 1000);
    }
    clockReads.set(0);
    counting.onBatchRestored(changelog(42), "orders", 499, 500);
    assertThat(clockReads.get()).isLessThanOrEqualTo(2);
    assertThat(counting.lag("orders", 42).orElseThrow().lag()).isEqualTo(500);
    assertThat(counting.lag("orders", 41).orElseThrow().lag()).isEqualTo(1000);
  }

  @Test
  void logsProgressOnTheFirstBatchThenEveryInterval(CapturedOutput output) {
    this.tracker.onRestoreStart(CHANGELOG_0, "orders", 0, 20_000);
    advance(100);
    this.tracker.onBatchRestored(CHANGELOG_0, "orders", 999, 1000);
    assertThat(output)
        .contains(
            "Restoring view 'orders' partition 0: 5% (1000 of 20000 offsets), 10000 records/s,"
                + " about 2s left");
    advance(1000);
    this.tracker.onBatchRestored(CHANGELOG_0, "orders", 1999, 1000);
    assertThat(output).doesNotContain("(2000 of 20000 offsets)");
    advance(4000);
    this.tracker.onBatchRestored(CHANGELOG_0, "orders", 2999, 1000);
    assertThat(output).contains("Restoring view 'orders' partition 0: 15% (3000 of 20000 offsets)");
    this.tracker.onRestoreEnd(CHANGELOG_0, "orders", 3000);
    assertThat(output).contains("Restored view 'orders' partition 0: 3000 records, up to date");
  }

  private PartitionLag lag(int partition) {
    return this.tracker.lag("orders", partition).orElseThrow();
  }

  private void advance(long millis) {
    this.nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
  }

  private static TopicPartition changelog(int partition) {
    return new TopicPartition("app-orders-changelog", partition);
  }
}
