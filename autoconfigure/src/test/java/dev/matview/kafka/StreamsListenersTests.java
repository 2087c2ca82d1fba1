package dev.matview.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.junit.jupiter.api.Test;
import org.mockito.InOrder;

/** Tests for {@link StreamsListeners}. */
class StreamsListenersTests {

  private static final TopicPartition CHANGELOG = new TopicPartition("app-sales-changelog", 0);

  private final StateRestoreListener first = mock(StateRestoreListener.class);

  private final StateRestoreListener second = mock(StateRestoreListener.class);

  private final StateRestoreListener set = mock(StateRestoreListener.class);

  private final StateRestoreListener after = mock(StateRestoreListener.class);

  @Test
  void callsTheListenersBeforeThenTheOneSetThenTheListenersAfter() {
    StreamsListeners listeners =
        StreamsListeners.builder()
            .restoreBefore(this.first)
            .restoreAfter(this.after)
            .restoreBefore(this.second)
            .build();
    CompositeStateRestoreListener installed = listeners.restore(this.set);
    assertThat(installed.listeners())
        .containsExactly(this.first, this.second, this.set, this.after);
    installed.onRestoreEnd(CHANGELOG, "sales", 10);
    InOrder order = inOrder(this.first, this.second, this.set, this.after);
    order.verify(this.first).onRestoreEnd(CHANGELOG, "sales", 10);
    order.verify(this.second).onRestoreEnd(CHANGELOG, "sales", 10);
    order.verify(this.set).onRestoreEnd(CHANGELOG, "sales", 10);
    order.verify(this.after).onRestoreEnd(CHANGELOG, "sales", 10);
  }

  @Test
  void callsItsOwnListenersAloneWhenNoneIsSet() {
    StreamsListeners listeners =
        StreamsListeners.builder().restoreBefore(this.first).restoreAfter(this.after).build();
    assertThat(listeners.restore(null).listeners()).containsExactly(this.first, this.after);
  }

  @Test
  void callsAListenerAddedTwiceOrAlsoSetOnceWhereItWasFirstAdded() {
    StreamsListeners listeners =
        StreamsListeners.builder()
            .restoreBefore(this.first)
            .restoreAfter(this.first)
            .restoreAfter(this.after)
            .restoreBefore(this.after)
            .build();
    assertThat(listeners.restore(this.after).listeners()).containsExactly(this.first, this.after);
    assertThat(listeners.restore(this.first).listeners()).containsExactly(this.first, this.after);
  }

  @Test
  void composesStateListenersAndStandbyListenersTheSameWay() {
    KafkaStreams.StateListener directory = mock(KafkaStreams.StateListener.class);
    KafkaStreams.StateListener user = mock(KafkaStreams.StateListener.class);
    StandbyUpdateListener tracker = mock(StandbyUpdateListener.class);
    StandbyUpdateListener setStandby = mock(StandbyUpdateListener.class);
    StandbyUpdateListener bean = mock(StandbyUpdateListener.class);
    StreamsListeners listeners =
        StreamsListeners.builder()
            .stateBefore(directory)
            .standbyBefore(tracker)
            .standbyAfter(bean)
            .build();
    CompositeStateListener state = listeners.state(user);
    assertThat(state.listeners()).containsExactly(directory, user);
    state.onChange(KafkaStreams.State.RUNNING, KafkaStreams.State.REBALANCING);
    then(user).should().onChange(KafkaStreams.State.RUNNING, KafkaStreams.State.REBALANCING);
    assertThat(listeners.standby(setStandby).listeners())
        .containsExactly(tracker, setStandby, bean);
  }
}
