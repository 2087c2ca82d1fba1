package dev.matview.kafka;

import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * Calls several restore listeners in order, because Kafka Streams and spring-kafka hold only one.
 */
public final class CompositeStateRestoreListener extends CompositeListener<StateRestoreListener>
    implements StateRestoreListener {

  /** Calls {@code listeners} in the order given. */
  public CompositeStateRestoreListener(List<StateRestoreListener> listeners) {
    super(listeners);
  }

  @Override
  public void onRestoreStart(
      TopicPartition partition, String store, long startingOffset, long endingOffset) {
    each((listener) -> listener.onRestoreStart(partition, store, startingOffset, endingOffset));
  }

  @Override
  public void onBatchRestored(
      TopicPartition partition, String store, long batchEndOffset, long numRestored) {
    each((listener) -> listener.onBatchRestored(partition, store, batchEndOffset, numRestored));
  }

  @Override
  public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
    each((listener) -> listener.onRestoreEnd(partition, store, totalRestored));
  }

  @Override
  public void onRestoreSuspended(TopicPartition partition, String store, long totalRestored) {
    each((listener) -> listener.onRestoreSuspended(partition, store, totalRestored));
  }
}
