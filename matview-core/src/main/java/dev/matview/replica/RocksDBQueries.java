package dev.matview.replica;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.ResultOrder;
import org.apache.kafka.streams.state.KeyValueStore;
import org.jspecify.annotations.Nullable;

/**
 * The IQv2 queries that a {@link RocksDBKeyValueStore} answers, as Kafka Streams' RocksDB store
 * answers them: a key, and a range of keys, in the bytes that the store's wrappers pass down; a
 * query bound to a position the store has not reached is refused, any other query is unknown. Each
 * answer carries the store's position as it was before the read, which the read is at least as new
 * as.
 */
final class RocksDBQueries {

  private RocksDBQueries() {}

  /** The answer of {@code store}, at {@code position}, of {@code partition}, to {@code query}. */
  @SuppressWarnings("unchecked")
  static <R> QueryResult<R> answer(
      KeyValueStore<Bytes, byte[]> store,
      Position position,
      int partition,
      Query<R> query,
      PositionBound bound,
      QueryConfig config) {
    long start = System.nanoTime();
    Position seen = position.copy();
    QueryResult<R> result;
    if (!reached(seen, bound, partition)) {
      result = QueryResult.notUpToBound(seen, bound, partition);
    } else if (query instanceof KeyQuery<?, ?> || query instanceof RangeQuery<?, ?>) {
      try {
        result = (QueryResult<R>) QueryResult.forResult(read(store, query));
      } catch (RuntimeException ex) {
        result =
            QueryResult.forFailure(
                FailureReason.STORE_EXCEPTION,
                "Store " + store.name() + " failed to answer " + query + ": " + ex);
      }
    } else {
      result = QueryResult.forUnknownQueryType(query, store);
    }
    if (config.isCollectExecutionInfo()) {
      result.addExecutionInfo(
          "Handled in " + store.getClass() + " in " + (System.nanoTime() - start) + "ns");
    }
    result.setPosition(seen);
    return result;
  }

  @SuppressWarnings("unchecked")
  private static @Nullable Object read(KeyValueStore<Bytes, byte[]> store, Query<?> query) {
    if (query instanceof KeyQuery<?, ?> key) {
      return store.get((Bytes) key.getKey());
    }
    RangeQuery<Bytes, byte[]> range = (RangeQuery<Bytes, byte[]>) query;
    @Nullable Bytes lower = range.getLowerBound().orElse(null);
    @Nullable Bytes upper = range.getUpperBound().orElse(null);
    return (range.resultOrder() == ResultOrder.DESCENDING)
        ? store.reverseRange(lower, upper)
        : store.range(lower, upper);
  }

  /**
   * Whether {@code seen} has reached {@code bound} in every topic that bounds {@code partition}.
   */
  private static boolean reached(Position seen, PositionBound bound, int partition) {
    if (bound.isUnbounded()) {
      return true;
    }
    Position required = bound.position();
    for (String topic : required.getTopics()) {
      Long needed = required.getPartitionPositions(topic).get(partition);
      if (needed != null) {
        Long had = seen.getPartitionPositions(topic).get(partition);
        if (had == null || had < needed) {
          return false;
        }
      }
    }
    return true;
  }
}
