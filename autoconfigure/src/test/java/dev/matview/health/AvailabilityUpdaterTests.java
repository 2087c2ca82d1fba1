package dev.matview.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.execution.MatviewExecutors;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.availability.ApplicationAvailabilityBean;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.AvailabilityState;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;

/** Tests for {@link AvailabilityUpdater}. */
class AvailabilityUpdaterTests {

  private final AtomicReference<KafkaStreams.State> state = new AtomicReference<>();

  private final AtomicBoolean shouldRun = new AtomicBoolean(true);

  private final ApplicationAvailabilityBean availability = new ApplicationAvailabilityBean();

  private final ApplicationEventPublisher publisher = this::dispatch;

  private final MatviewExecutors executors = new MatviewExecutors();

  private final AvailabilityUpdater updater =
      new AvailabilityUpdater(
          new StreamsHealth(this.state::get, new RestoreLagTracker(), 0),
          this.shouldRun::get,
          this.availability,
          this.publisher,
          Duration.ofSeconds(1),
          this.executors.timer(),
          this.executors.polls());

  @AfterEach
  void stopExecutors() {
    this.executors.close();
  }

  @Test
  void refusesTrafficWhileTheViewsCannotBeServedThenAcceptsIt() {
    bootSays(ReadinessState.ACCEPTING_TRAFFIC);
    this.state.set(KafkaStreams.State.REBALANCING);
    this.updater.update();
    assertThat(this.availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
    this.state.set(KafkaStreams.State.RUNNING);
    this.updater.update();
    assertThat(this.availability.getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
  }

  @Test
  void refusesTrafficAgainWhenBootAcceptsItWhileTheViewsAreRestoring() {
    this.state.set(KafkaStreams.State.REBALANCING);
    this.updater.update();
    assertThat(this.availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
    bootSays(ReadinessState.ACCEPTING_TRAFFIC);
    this.updater.update();
    assertThat(this.availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
  }

  @Test
  void acceptsTrafficOnceServingWhenBootsAcceptingArrivesAfterTheUpdaterRefusedIt() {
    AvailabilityChangeEvent<ReadinessState> accepting =
        new AvailabilityChangeEvent<>(this, ReadinessState.ACCEPTING_TRAFFIC);
    this.availability.onApplicationEvent(accepting);
    this.state.set(KafkaStreams.State.REBALANCING);
    this.updater.update();
    this.updater.onApplicationEvent(accepting);
    assertThat(this.availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
    this.state.set(KafkaStreams.State.RUNNING);
    this.updater.update();
    assertThat(this.availability.getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
  }

  @Test
  void brokenLivenessMendsWhenBootsCorrectArrivesAfterTheUpdaterBrokeIt() {
    AvailabilityChangeEvent<LivenessState> correct =
        new AvailabilityChangeEvent<>(this, LivenessState.CORRECT);
    this.availability.onApplicationEvent(correct);
    this.state.set(KafkaStreams.State.ERROR);
    this.updater.update();
    this.updater.onApplicationEvent(correct);
    assertThat(this.availability.getLivenessState()).isEqualTo(LivenessState.BROKEN);
    this.state.set(KafkaStreams.State.RUNNING);
    this.updater.update();
    assertThat(this.availability.getLivenessState()).isEqualTo(LivenessState.CORRECT);
  }

  @Test
  void neverAcceptsTrafficThatSomethingElseRefused() {
    bootSays(ReadinessState.ACCEPTING_TRAFFIC);
    this.state.set(KafkaStreams.State.REBALANCING);
    this.updater.update();
    bootSays(ReadinessState.REFUSING_TRAFFIC);
    this.state.set(KafkaStreams.State.RUNNING);
    this.updater.update();
    assertThat(this.availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
  }

  @Test
  void breaksLivenessOnlyWhenKafkaStreamsHasFailed() {
    bootSays(LivenessState.CORRECT);
    this.state.set(KafkaStreams.State.REBALANCING);
    this.updater.update();
    assertThat(this.availability.getLivenessState()).isEqualTo(LivenessState.CORRECT);
    this.state.set(KafkaStreams.State.ERROR);
    this.updater.update();
    assertThat(this.availability.getLivenessState()).isEqualTo(LivenessState.BROKEN);
    this.state.set(KafkaStreams.State.RUNNING);
    this.updater.update();
    assertThat(this.availability.getLivenessState()).isEqualTo(LivenessState.CORRECT);
  }

  @Test
  void breaksLivenessWhenKafkaStreamsIsNotRunningOnlyWhileItShouldRun() {
    bootSays(LivenessState.CORRECT);
    this.state.set(KafkaStreams.State.NOT_RUNNING);
    this.shouldRun.set(false);
    this.updater.update();
    assertThat(this.availability.getLivenessState()).isEqualTo(LivenessState.CORRECT);
    this.shouldRun.set(true);
    this.updater.update();
    assertThat(this.availability.getLivenessState()).isEqualTo(LivenessState.BROKEN);
  }

  private void bootSays(AvailabilityState state) {
    AvailabilityChangeEvent.publish(this.publisher, this, state);
  }

  private void dispatch(Object event) {
    AvailabilityChangeEvent<?> change = (AvailabilityChangeEvent<?>) event;
    this.availability.onApplicationEvent(change);
    this.updater.onApplicationEvent(change);
  }
}
