package dev.matview.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.query.answer.Replica;
import dev.matview.query.local.LocalReplicas;
import java.time.Duration;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

/** Tests for {@link TrackedReplicas}: the live lag a lookup judges a local replica by. */
class TrackedReplicasTests {

  private static final TopicPartition CHANGELOG_0 = new TopicPartition("app-orders-changelog", 0);

  private static final TopicPartition CHANGELOG_1 = new TopicPartition("app-orders-changelog", 1);

  private final RestoreLagTracker tracker = new RestoreLagTracker(() -> 0L, Duration.ofSeconds(5));

  private final TrackedReplicas replicas = new TrackedReplicas(this.tracker);

  @Test
  void knowsNoReplicaTheTrackerDoesNotTrack() {
    assertThat(this.replicas.state("orders", 0)).isNull();
  }

  @Test
  void givesARestoringActiveItsLagAndARestoredOneNone() {
    this.tracker.onRestoreStart(CHANGELOG_0, "orders", 0, 100);
    this.tracker.onBatchRestored(CHANGELOG_0, "orders", 39, 40);
    assertThat(this.replicas.state("orders", 0))
        .isEqualTo(new LocalReplicas.State(Replica.Role.ACTIVE, 60, 100, null));
    this.tracker.onRestoreEnd(CHANGELOG_0, "orders", 100);
    assertThat(this.replicas.state("orders", 0).lag()).isZero();
  }

  @Test
  void takesAStandbyWhoseChangelogEndIsUnknownAsLaggingMoreThanAnyBound() {
    this.tracker.onUpdateStart(CHANGELOG_1, "orders", 70);
    LocalReplicas.State unknown = this.replicas.state("orders", 1);
    assertThat(unknown.role()).isEqualTo(Replica.Role.STANDBY);
    assertThat(unknown.lag()).isEqualTo(Long.MAX_VALUE);
    assertThat(unknown.endOffset()).isNegative();
    this.tracker.onBatchLoaded(CHANGELOG_1, "orders", new TaskId(0, 1), 79, 10, 84);
    assertThat(this.replicas.state("orders", 1).lag()).isEqualTo(5);
  }
}
