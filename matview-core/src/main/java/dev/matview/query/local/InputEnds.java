package dev.matview.query.local;

import dev.matview.position.InputRecord;
import dev.matview.query.answer.Futures;
import dev.matview.query.answer.InvalidQueryException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Where each source partition ends, as far as lookups that name a record with {@code after=} need
 * it: a record at or beyond the end has not been written, so such a lookup is refused at once
 * rather than waited for. The broker is asked only when a record lies beyond the end known, and
 * nobody waits for its answer with a thread.
 */
final class InputEnds {

  private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

  private final BrokerAdmin admin;

  private final Map<TopicPartition, Long> known = new ConcurrentHashMap<>();

  private final Map<String, Integer> partitions = new ConcurrentHashMap<>();

  InputEnds(BrokerAdmin admin) {
    this.admin = admin;
  }

  /** Completes once {@code record} is known written; fails when its partition lacks it. */
  CompletableFuture<Void> written(String view, InputRecord record) {
    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
    Long end = this.known.get(partition);
    if (end != null && record.offset() < end) {
      return DONE;
    }
    return partitionExists(view, record).thenCompose((exists) -> held(view, record, partition));
  }

  /** Fails when {@code record}'s topic has no such partition; completes too when none can tell. */
  private CompletableFuture<Void> partitionExists(String view, InputRecord record) {
    Integer count = this.partitions.get(record.topic());
    if (count != null && record.partition() < count) {
      return DONE;
    }
    return this.admin
        .get()
        .describeTopics(List.of(record.topic()))
        .allTopicNames()
        .toCompletionStage()
        .toCompletableFuture()
        .handle(
            (described, failure) -> {
              TopicDescription description =
                  (described != null) ? described.get(record.topic()) : null;
              if (description == null) {
                return null;
              }
              int partitions = description.partitions().size();
              this.partitions.put(record.topic(), partitions);
              if (record.partition() >= partitions) {
                throw noSuchPartition(view, record, ": it has partitions 0 to " + (partitions - 1));
              }
              return null;
            });
  }

  /**
   * Fails when {@code partition} ends at or before {@code record}; completes when none can tell.
   */
  private CompletableFuture<Void> held(String view, InputRecord record, TopicPartition partition) {
    return this.admin
        .get()
        .listOffsets(Map.of(partition, OffsetSpec.latest()))
        .partitionResult(partition)
        .toCompletionStage()
        .toCompletableFuture()
        .handle(
            (info, failure) -> {
              if (info == null) {
                if (Futures.unwrapped(failure) instanceof UnknownTopicOrPartitionException) {
                  throw noSuchPartition(view, record, "");
                }
                return null;
              }
              long fetched = this.known.merge(partition, info.offset(), Math::max);
              if (record.offset() >= fetched) {
                throw notWritten(view, record, fetched);
              }
              return null;
            });
  }

  private static InvalidQueryException notWritten(String view, InputRecord record, long end) {
    return new InvalidQueryException(
        view,
        "after",
        "after="
            + record
            + " names a record that partition "
            + record.partition()
            + " of '"
            + record.topic()
            + "' does not hold yet: it ends at offset "
            + end
            + "; name the offset that the producer's send answered");
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
