package dev.matview.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.matview.disk.StateDirSpace;
import dev.matview.rocksdb.RocksDBMemoryLimits;
import dev.matview.rocksdb.SharedRocksDBMemory;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/** Tests for {@link MatviewHealthIndicator} and {@link StreamsHealth} over every state. */
class MatviewHealthIndicatorTests {

  private static final TopicPartition CHANGELOG_0 = new TopicPartition("app-orders-changelog", 0);

  private static final TopicPartition CHANGELOG_1 = new TopicPartition("app-orders-changelog", 1);

  private final AtomicLong nanos = new AtomicLong();

  private final RestoreLagTracker tracker =
      new RestoreLagTracker(this.nanos::get, RestoreLagTracker.DEFAULT_PROGRESS_INTERVAL);

  private final AtomicReference<KafkaStreams.State> state = new AtomicReference<>();

  @TempDir Path stateDir;

  @Test
  void isOutOfServiceWhileKafkaStreamsIsNotStarted() {
    Health health = health(0);
    assertThat(health.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
    assertThat(health.getDetails())
        .containsEntry("state", "NOT_STARTED")
        .containsEntry("reason", "Kafka Streams has not started");
  }

  @ParameterizedTest
  @EnumSource(names = {"CREATED", "REBALANCING", "PENDING_SHUTDOWN"})
  void isOutOfServiceWhileKafkaStreamsStartsRebalancesOrShutsDown(KafkaStreams.State state) {
    this.state.set(state);
    Health health = health(0);
    assertThat(health.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
    assertThat(health.getDetails()).containsEntry("state", state.name());
  }

  @ParameterizedTest
  @EnumSource(names = {"NOT_RUNNING", "PENDING_ERROR", "ERROR"})
  void isDownWhenKafkaStreamsHasFailedOrStopped(KafkaStreams.State state) {
    this.state.set(state);
    assertThat(health(0).getStatus()).isEqualTo(Status.DOWN);
  }

  @Test
  void isUpWhenRunningWithEveryActivePartitionRestored() {
    this.state.set(KafkaStreams.State.RUNNING);
    this.tracker.onRestoreStart(CHANGELOG_0, "orders", 0, 100);
    this.tracker.onBatchRestored(CHANGELOG_0, "orders", 99, 100);
    this.tracker.onRestoreEnd(CHANGELOG_0, "orders", 100);
    Health health = health(0);
    assertThat(health.getStatus()).isEqualTo(Status.UP);
    assertThat(health.getDetails()).doesNotContainKey("reason");
  }

  @Test
  void isOutOfServiceWhileRunningWithAnActivePartitionRestoringBeyondTheBound() {
    this.state.set(KafkaStreams.State.RUNNING);
    this.tracker.onRestoreStart(CHANGELOG_0, "orders", 0, 1000);
    this.tracker.onBatchRestored(CHANGELOG_0, "orders", 899, 900);
    Health beyond = health(99);
    assertThat(beyond.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
    assertThat(beyond.getDetails())
        .containsEntry(
            "reason",
            "View 'orders' partition 0 is restoring, 100 offsets behind (at most 99 allowed)");
    assertThat(health(100).getStatus()).isEqualTo(Status.UP);
  }

  @Test
  void ignoresTheLagOfStandbys() {
    this.state.set(KafkaStreams.State.RUNNING);
    this.tracker.onUpdateStart(CHANGELOG_1, "orders", 0);
    this.tracker.onBatchLoaded(CHANGELOG_1, "orders", new TaskId(0, 1), 99, 100, 999);
    assertThat(health(0).getStatus()).isEqualTo(Status.UP);
  }

  @Test
  void detailsEveryPartitionByViewWithItsRoleOffsetsLagRateAndEta() {
    this.state.set(KafkaStreams.State.REBALANCING);
    this.tracker.onRestoreStart(CHANGELOG_0, "orders", 0, 20_000);
    this.nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(500));
    this.tracker.onBatchRestored(CHANGELOG_0, "orders", 4999, 5000);
    this.tracker.onUpdateStart(CHANGELOG_1, "orders", 0);
    this.nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(100));
    this.tracker.onBatchLoaded(CHANGELOG_1, "orders", new TaskId(0, 1), 99, 100, 149);
    Health health = health(0);
    assertThat(health.getDetails())
        .containsEntry("state", "REBALANCING")
        .containsEntry("reason", "Kafka Streams is rebalancing")
        .containsEntry("maxRestoreLag", 0L);
    assertThat(health.getDetails().get("views"))
        .isEqualTo(
            Map.of(
                "orders",
                Map.of(
                    "0",
                    Map.of(
                        "role", "active",
                        "currentOffset", 5000L,
                        "endOffset", 20_000L,
                        "lag", 15_000L,
                        "recordsPerSecond", 10_000L,
                        "etaSeconds", 2L),
                    "1",
                    Map.of(
                        "role", "standby",
                        "currentOffset", 100L,
                        "endOffset", 150L,
                        "lag", 50L,
                        "recordsPerSecond", 1000L,
                        "etaSeconds", 1L))));
  }

  @Test
  void refusesANegativeBound() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new StreamsHealth(this.state::get, this.tracker, -1));
  }

  @Test
  void isOutOfServiceWithTheReasonWhenTheStateDirsDiskHasLessFreeSpaceThanTheBound() {
    this.state.set(KafkaStreams.State.RUNNING);
    Health health = health(0, Long.MAX_VALUE);
    assertThat(health.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
    assertThat((String) health.getDetails().get("reason"))
        .startsWith("Only ")
        .contains("free on the disk of the state dir " + this.stateDir.toAbsolutePath())
        .contains("less than matview.health.min-free-disk=")
        .contains("Free space on that disk");
    @SuppressWarnings("unchecked")
    Map<String, Object> disk = (Map<String, Object>) health.getDetails().get("disk");
    assertThat(disk)
        .containsEntry("stateDir", this.stateDir.toAbsolutePath().toString())
        .containsEntry("minFreeBytes", Long.MAX_VALUE);
    assertThat((Long) disk.get("freeBytes")).isPositive();
  }

  @Test
  void isUpWhenTheStateDirsDiskHasAtLeastTheBoundFree() {
    this.state.set(KafkaStreams.State.RUNNING);
    Health health = health(0, 1);
    assertThat(health.getStatus()).isEqualTo(Status.UP);
    assertThat(health.getDetails()).doesNotContainKey("reason");
    assertThat(health.getDetails()).containsKey("disk");
  }

  @Test
  void staysDownWhenKafkaStreamsHasFailedWhateverTheDisk() {
    this.state.set(KafkaStreams.State.ERROR);
    Health health = health(0, Long.MAX_VALUE);
    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
    assertThat((String) health.getDetails().get("reason"))
        .startsWith("Kafka Streams has failed; Only ");
  }

  @Test
  void givesBothReasonsWhileRebalancingWithTooLittleFreeSpace() {
    this.state.set(KafkaStreams.State.REBALANCING);
    Health health = health(0, Long.MAX_VALUE);
    assertThat(health.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
    assertThat((String) health.getDetails().get("reason"))
        .startsWith("Kafka Streams is rebalancing; Only ")
        .contains("matview.health.min-free-disk");
  }

  @Test
  void showsRocksDBMemoryAgainstItsBoundWithoutChangingTheStatus() {
    this.state.set(KafkaStreams.State.RUNNING);
    SharedRocksDBMemory pool =
        SharedRocksDBMemory.forLimits(new RocksDBMemoryLimits(80L << 20, 0.25, false));
    Health health = health(0, 0, new MemoryPressure(() -> List.of(pool)));
    assertThat(health.getStatus()).isEqualTo(Status.UP);
    assertThat(health.getDetails()).doesNotContainKey("reason");
    @SuppressWarnings("unchecked")
    Map<String, Object> rocksdb = (Map<String, Object>) health.getDetails().get("rocksdb");
    assertThat(rocksdb)
        .containsEntry("boundBytes", 80L << 20)
        .containsEntry("overshootBytes", 0L)
        .containsKeys("usedBytes", "pinnedBytes", "openStores");
    assertThat(health(0).getDetails()).doesNotContainKey("rocksdb");
  }

  private Health health(long maxRestoreLag) {
    return health(maxRestoreLag, 0);
  }

  private Health health(long maxRestoreLag, long minFreeBytes) {
    return health(maxRestoreLag, minFreeBytes, new MemoryPressure(List::of));
  }

  private Health health(long maxRestoreLag, long minFreeBytes, MemoryPressure memory) {
    return new MatviewHealthIndicator(
            new StreamsHealth(this.state::get, this.tracker, maxRestoreLag),
            new DiskPressure(new StateDirSpace(this.stateDir), minFreeBytes),
            memory)
        .health();
  }
}
