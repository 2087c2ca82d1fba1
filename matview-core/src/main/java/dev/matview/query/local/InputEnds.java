package dev.matview.query.local;

import dev.matview.position.InputRecord;
import dev.matview.query.answer.InvalidQueryException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.jspecify.annotations.Nullable;

/**
 * Where each source partition ends, as far as lookups that name a record with {@code after=} need
 * it: a record at or beyond the end has not been written, so such a lookup is refused at once
 * rather than waited for. The broker is asked only when a record lies beyond the end known.
 */
final class InputEnds {

  private final BrokerAdmin admin;

  private final Map<TopicPartition, Long> known = new ConcurrentHashMap<>();

  private final Map<String, Integer> partitions = new ConcurrentHashMap<>();

  InputEnds(BrokerAdmin admin) {
    this.admin = admin;
  }

  /**
   * Refuses {@code record} of {@code view} unless its partition holds it.
   *
   * @throws InvalidQueryException when the partition does not exist or ends before the record
   */
  void requireWritten(String view, InputRecord record) {
    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
    Long end = this.known.get(partition);
    if (end != null && record.offset() < end) {
      return;
    }
    requirePartition(view, record);
    Long fetched = fetch(view, record, partition);
    if (fetched == null) {
      return;
    }
    this.known.merge(partition, fetched, Math::max);
    if (record.offset() >= fetched) {
      throw new InvalidQueryException(
          view,
          "after",
          "after="
              + record
              + " names a record that partition "
              + record.partition()
              + " of '"
              + record.topic()
              + "' does not hold yet: it ends at offset "
              + fetched
              + "; name the offset that the producer's send answered");
    }
  }

  /** Refuses a record of a partition its topic does not have. */
  private void requirePartition(String view, InputRecord record) {
    Integer count = this.partitions.get(record.topic());
    if (count == null || record.partition() >= count) {
      count = partitionCount(record.topic());
      if (count == null) {
        return;
      }
      this.partitions.put(record.topic(), count);
    }
    if (record.partition() >= count) {
      throw noSuchPartition(view, record, ": it has partitions 0 to " + (count - 1));
    }
  }

  private @Nullable Integer partitionCount(String topic) {
    try {
      TopicDescription description =
          this.admin
              .get()
              .describeTopics(List.of(topic))
              .allTopicNames()
              .get(BrokerAdmin.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
              .get(topic);
      return (description != null) ? description.partitions().size() : null;
    } catch (ExecutionException | TimeoutException ex) {
      return null;
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** The partition's end offset, or {@code null} when the broker did not tell it in time. */
  private @Nullable Long fetch(String view, InputRecord record, TopicPartition partition) {
    ListOffsetsResult result = this.admin.get().listOffsets(Map.of(partition, OffsetSpec.latest()));
    try {
      return result
          .partitionResult(partition)
          .get(BrokerAdmin.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
          .offset();
    } catch (ExecutionException ex) {
      if (ex.getCause() instanceof UnknownTopicOrPartitionException) {
        throw noSuchPartition(view, record, "");
      }
      return null;
    } catch (TimeoutException ex) {
      return null;
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** The refusal of {@code record}, whose partition does not exist, {@code more} saying why. */
  private static InvalidQueryException noSuchPartition(
      String view, InputRecord record, String more) {
    return new InvalidQueryException(
        view,
        "after",
        "after="
            + record
            + " names partition "
            + record.partition()
            + " of '"
            + record.topic()
            + "', which does not exist"
            + more);
  }
}
