package dev.matview.kafka;

import java.util.List;
import org.apache.kafka.streams.KafkaStreams;

/** Calls several state listeners in order, because Kafka Streams holds only one. */
public final class CompositeStateListener extends CompositeListener<KafkaStreams.StateListener>
    implements KafkaStreams.StateListener {

  /** Calls {@code listeners} in the order given. */
  public CompositeStateListener(List<KafkaStreams.StateListener> listeners) {
    super(listeners);
  }

  @Override
  public void onChange(KafkaStreams.State newState, KafkaStreams.State oldState) {
    each((listener) -> listener.onChange(newState, oldState));
  }
}
