package dev.matview.kafka;

import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * Calls several restore listeners in order, because Kafka Streams and spring-kafka hold only one.
 */
public final class CompositeStateRestoreListener implements StateRestoreListener {

  private final List<StateRestoreListener> listeners;

  /** Calls {@code listeners} in the order given. */
  public CompositeStateRestoreListener(List<StateRestoreListener> listeners) {
    this.listeners = List.copyOf(listeners);
  }

  /** The listeners called, in order. */
  public List<StateRestoreListener> listeners() {
    return this.listeners;
  }

  @Override
  public void onRestoreStart(
      TopicPartition partition, String store, long startingOffset, long endingOffset) {
    for (StateRestoreListener listener : this.listeners) {
      listener.onRestoreStart(partition, store, startingOffset, endingOffset);
    }
  }

  @Override
  public void onBatchRestored(
      TopicPartition partition, String store, long batchEndOffset, long numRestored) {
    for (StateRestoreListener listener : this.listeners) {
      listener.onBatchRestored(partition, store, batchEndOffset, numRestored);
    }
  }

  @Override
  public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
    for (StateRestoreListener listener : this.listeners) {
      listener.onRestoreEnd(partition, store, totalRestored);
    }
  }

  @Override
  public void onRestoreSuspended(TopicPartition partition, String store, long totalRestored) {
    for (StateRestoreListener listener : this.listeners) {
      listener.onRestoreSuspended(partition, store, totalRestored);
    }
  }
}
