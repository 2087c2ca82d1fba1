package dev.matview.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KafkaStreams;
import org.jspecify.annotations.Nullable;

/** Calls several state listeners in order, because Kafka Streams holds only one. */
final class CompositeStateListener implements KafkaStreams.StateListener {

  private final List<KafkaStreams.StateListener> listeners;

  private CompositeStateListener(List<KafkaStreams.StateListener> listeners) {
    this.listeners = List.copyOf(listeners);
  }

  /**
   * Calls {@code first}, then the listeners of {@code current} (the listener set before, itself
   * perhaps composite), each once.
   */
  static CompositeStateListener of(
      KafkaStreams.StateListener first, KafkaStreams.@Nullable StateListener current) {
    List<KafkaStreams.StateListener> listeners = new ArrayList<>();
    listeners.add(first);
    List<KafkaStreams.StateListener> before =
        (current instanceof CompositeStateListener composite)
            ? composite.listeners
            : (current != null) ? List.of(current) : List.of();
    before.stream().filter((listener) -> listener != first).forEach(listeners::add);
    return new CompositeStateListener(listeners);
  }

  /** The listeners called, in order. */
  List<KafkaStreams.StateListener> listeners() {
    return this.listeners;
  }

  @Override
  public void onChange(KafkaStreams.State newState, KafkaStreams.State oldState) {
    for (KafkaStreams.StateListener listener : this.listeners) {
      listener.onChange(newState, oldState);
    }
  }
}
