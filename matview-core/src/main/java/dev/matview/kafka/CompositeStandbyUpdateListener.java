package dev.matview.kafka;

import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.apache.kafka.streams.processor.TaskId;

/** Calls several standby update listeners in order, because Kafka Streams holds only one. */
public final class CompositeStandbyUpdateListener extends CompositeListener<StandbyUpdateListener>
    implements StandbyUpdateListener {

  /** Calls {@code listeners} in the order given. */
  public CompositeStandbyUpdateListener(List<StandbyUpdateListener> listeners) {
    super(listeners);
  }

  @Override
  public void onUpdateStart(TopicPartition partition, String store, long startingOffset) {
    each((listener) -> listener.onUpdateStart(partition, store, startingOffset));
  }

  @Override
  public void onBatchLoaded(
      TopicPartition partition,
      String store,
      TaskId taskId,
      long batchEndOffset,
      long batchSize,
      long currentEndOffset) {
    each(
        (listener) ->
            listener.onBatchLoaded(
                partition, store, taskId, batchEndOffset, batchSize, currentEndOffset));
  }

  @Override
  public void onUpdateSuspended(
      TopicPartition partition,
      String store,
      long storeOffset,
      long currentEndOffset,
      SuspendReason reason) {
    each(
        (listener) ->
            listener.onUpdateSuspended(partition, store, storeOffset, currentEndOffset, reason));
  }
}
