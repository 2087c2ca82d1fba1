package dev.matview.query.local;

import dev.matview.topology.ResolvedView;
import java.util.Set;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.state.QueryableStoreType;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlySessionStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.jspecify.annotations.Nullable;

/**
 * One partition of a windowed or session view's store on this instance, through Kafka Streams:
 * IQv2, which reads RocksDB only, and the store API, which reads through the record cache. Each
 * refuses as {@link LocalRefusals} say when the partition is not served here.
 */
final class WindowStores {

  private static final Log logger = LogFactory.getLog(WindowStores.class);

  private final LocalRefusals refusals;

  WindowStores(LocalRefusals refusals) {
    this.refusals = refusals;
  }

  /** A time-windowed view's store partition through the store API, which reads the cache. */
  <K> ReadOnlyWindowStore<K, Object> windowStore(
      ResolvedView<K, ?, ?> view, @Nullable Object key, int partition, boolean runningActive) {
    return store(view, key, partition, runningActive, QueryableStoreTypes.windowStore());
  }

  /** A session view's store partition through the store API, which reads the cache. */
  <K> ReadOnlySessionStore<K, Object> sessionStore(
      ResolvedView<K, ?, ?> view, @Nullable Object key, int partition, boolean runningActive) {
    return store(view, key, partition, runningActive, QueryableStoreTypes.sessionStore());
  }

  private <T> T store(
      ResolvedView<?, ?, ?> view,
      @Nullable Object key,
      int partition,
      boolean runningActive,
      QueryableStoreType<T> type) {
    StoreQueryParameters<T> parameters =
        StoreQueryParameters.fromNameAndType(view.storeName(), type).withPartition(partition);
    return this.refusals
        .running(view, key, partition)
        .store(runningActive ? parameters : parameters.enableStaleStores());
  }

  /** The answer of partition {@code partition} of the view's store to an IQv2 {@code query}. */
  <R> R query(
      ResolvedView<?, ?, ?> view,
      @Nullable Object key,
      int partition,
      Query<R> query,
      boolean runningActive) {
    KafkaStreams kafkaStreams = this.refusals.running(view, key, partition);
    StateQueryRequest<R> request =
        StateQueryRequest.inStore(view.storeName())
            .withQuery(query)
            .withPartitions(Set.of(partition));
    StateQueryResult<R> result;
    try {
      result = kafkaStreams.query(runningActive ? request.requireActive() : request);
    } catch (InvalidStateStoreException ex) {
      throw this.refusals.unavailable(view, key, partition, ex.getMessage());
    }
    QueryResult<R> partitionResult = result.getPartitionResults().get(partition);
    if (partitionResult == null) {
      throw this.refusals.unavailable(view, key, partition, "this instance does not host it");
    }
    if (partitionResult.isFailure()) {
      throw this.refusals.unavailable(
          view, key, partition, failureReason(view.name(), partition, partitionResult));
    }
    return partitionResult.getResult();
  }

  /**
   * A short, true reason for a failed store query. Kafka Streams' failure message can hold a whole
   * stack trace, so it is logged here, at WARN when the store itself failed, and never sent to the
   * caller.
   */
  static String failureReason(String view, int partition, QueryResult<?> result) {
    FailureReason failure = result.getFailureReason();
    String message = "Query of partition " + partition + " of view '" + view + "' failed: ";
    if (failure == FailureReason.STORE_EXCEPTION) {
      logger.warn(message + failure + ": " + result.getFailureMessage());
    } else if (logger.isDebugEnabled()) {
      logger.debug(message + failure + ": " + result.getFailureMessage());
    }
    return switch (failure) {
      case NOT_ACTIVE -> "its replica here is still restoring or being assigned";
      case NOT_UP_TO_BOUND -> "its replica here has not yet caught up";
      case NOT_PRESENT -> "this instance does not host it";
      case DOES_NOT_EXIST -> "its store does not exist here";
      case UNKNOWN_QUERY_TYPE -> "its store cannot answer this kind of query";
      case STORE_EXCEPTION ->
          "its store failed the query (" + failure + ", logged by this instance)";
    };
  }
}
