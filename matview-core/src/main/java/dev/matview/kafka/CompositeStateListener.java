package dev.matview.kafka;

import java.util.List;
import org.apache.kafka.streams.KafkaStreams;

/** Calls several state listeners in order, because Kafka Streams holds only one. */
public final class CompositeStateListener implements KafkaStreams.StateListener {

  private final List<KafkaStreams.StateListener> listeners;

  /** Calls {@code listeners} in the order given. */
  public CompositeStateListener(List<KafkaStreams.StateListener> listeners) {
    this.listeners = List.copyOf(listeners);
  }

  /** The listeners called, in order. */
  public List<KafkaStreams.StateListener> listeners() {
    return this.listeners;
  }

  @Override
  public void onChange(KafkaStreams.State newState, KafkaStreams.State oldState) {
    for (KafkaStreams.StateListener listener : this.listeners) {
      listener.onChange(newState, oldState);
    }
  }
}
