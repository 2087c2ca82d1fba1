package dev.matview.kafka;

import java.util.List;
import java.util.function.Consumer;

/** Calls several listeners of one kind in order, because Kafka Streams holds only one of each. */
abstract class CompositeListener<T> {

  private final List<T> listeners;

  CompositeListener(List<T> listeners) {
    this.listeners = List.copyOf(listeners);
  }

  /** The listeners called, in order. */
  public List<T> listeners() {
    return this.listeners;
  }

  /** Makes {@code call} on each listener, in order. */
  final void each(Consumer<T> call) {
    this.listeners.forEach(call);
  }
}
