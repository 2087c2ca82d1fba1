package dev.matview.autoconfigure;

import dev.matview.kafka.StreamsListeners;
import org.apache.kafka.streams.KafkaStreams;

/** Has a listener hear Kafka Streams' changes of state before the one set on it, in order. */
class StateListenerContributor implements StreamsListenersContributor {

  private final KafkaStreams.StateListener listener;

  private final int order;

  /** A contributor that adds {@code listener}, in {@code order}. */
  StateListenerContributor(KafkaStreams.StateListener listener, int order) {
    this.listener = listener;
    this.order = order;
  }

  @Override
  public void contribute(StreamsListeners.Builder listeners) {
    listeners.stateBefore(this.listener);
  }

  @Override
  public int getOrder() {
    return this.order;
  }
}
