package dev.matview.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

import dev.matview.execution.MatviewExecutors;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.LagInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A replica whose lag is wanted and not known gets Kafka Streams' lag report at once, off the
 * lookup's path, and lookups that keep meeting it ask the broker at most once per gap.
 */
class LagReportsTests {

  private static final Duration NEVER = Duration.ofHours(1);

  private final KafkaStreams streams = mock(KafkaStreams.class);

  private final RestoreLagTracker tracker = new RestoreLagTracker();

  private final TrackedReplicas replicas = new TrackedReplicas(this.tracker);

  private final MatviewExecutors executors = new MatviewExecutors();

  private LagReports reports;

  @AfterEach
  void stopReports() {
    if (this.reports != null) {
      this.reports.stop();
    }
    this.executors.close();
  }

  @Test
  void aStandbyThatStartsLearnsItsLagAtOnceInsteadOfAtTheNextPeriod() {
    reportsEvery(NEVER, Duration.ZERO, 40, 100);

    this.tracker.onUpdateStart(new TopicPartition("app-counts-changelog", 3), "counts", 40);

    await("the standby's lag from Kafka Streams' report")
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(this.replicas.state("counts", 3).lag()).isEqualTo(60));
  }

  @Test
  void lookupsThatMeetAnUnknownLagAskTheBrokerAtMostOncePerGap() {
    reportsEvery(NEVER, NEVER, 40, 100);
    this.tracker.onUpdateStart(new TopicPartition("app-counts-changelog", 3), "counts", 40);
    await().atMost(Duration.ofSeconds(10)).until(() -> this.replicas.state("counts", 3).lagKnown());
    this.tracker.onUpdateStart(new TopicPartition("app-counts-changelog", 4), "counts", 0);

    for (int n = 0; n < 100; n++) {
      assertThat(this.replicas.state("counts", 4).lagKnown()).isFalse();
    }

    verify(this.streams, times(1)).allLocalStorePartitionLags();
  }

  private void reportsEvery(Duration period, Duration gap, long position, long end) {
    LagInfo lag = mock(LagInfo.class);
    given(lag.currentOffsetPosition()).willReturn(position);
    given(lag.endOffsetPosition()).willReturn(end);
    given(this.streams.state()).willReturn(KafkaStreams.State.RUNNING);
    given(this.streams.allLocalStorePartitionLags()).willReturn(Map.of("counts", Map.of(3, lag)));
    this.reports =
        new LagReports(
            () -> this.streams,
            this.tracker,
            period,
            gap,
            this.executors.timer(),
            this.executors.polls());
    this.reports.start();
  }
}
