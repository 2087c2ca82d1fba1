package dev.matview.replica;

import static dev.matview.replica.RocksDBKeyValueStoreTests.key;
import static dev.matview.replica.RocksDBKeyValueStoreTests.keys;
import static dev.matview.replica.RocksDBKeyValueStoreTests.value;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests for {@link RocksDBQueries}: the IQv2 queries of a {@link RocksDBKeyValueStore}. */
class RocksDBQueriesTests {

  private static final String TOPIC = "orders";

  @TempDir Path stateDir;

  @Test
  void answersKeyAndRangeQueriesBoundToAPositionTheStoreReached() {
    RecordingStoreContext context = new RecordingStoreContext(this.stateDir, Map.of());
    RocksDBKeyValueStore store = new RocksDBKeyValueStore("orders-per-customer");
    store.init(context, store);
    try {
      context.processing(TOPIC, 0, 5);
      store.put(key("a"), value(1, "one"));
      store.put(key("b"), value(2, "two"));
      QueryConfig config = new QueryConfig(true);

      QueryResult<byte[]> found =
          store.query(KeyQuery.withKey(key("a")), PositionBound.at(position(5)), config);
      assertThat(found.isSuccess()).isTrue();
      assertThat(found.getResult()).isEqualTo(value(1, "one"));
      assertThat(found.getPosition()).isEqualTo(position(5));
      assertThat(found.getExecutionInfo()).isNotEmpty();
      QueryResult<KeyValueIterator<Bytes, byte[]>> range =
          store.query(
              RangeQuery.<Bytes, byte[]>withNoBounds().withDescendingKeys(),
              PositionBound.unbounded(),
              config);
      assertThat(keys(range.getResult())).containsExactly("b", "a");
      QueryResult<byte[]> ahead =
          store.query(KeyQuery.withKey(key("a")), PositionBound.at(position(6)), config);
      assertThat(ahead.getFailureReason()).isEqualTo(FailureReason.NOT_UP_TO_BOUND);
      QueryResult<byte[]> otherTopic =
          store.query(
              KeyQuery.withKey(key("a")),
              PositionBound.at(Position.emptyPosition().withComponent("other", 0, 9)),
              config);
      assertThat(otherTopic.getFailureReason()).isEqualTo(FailureReason.NOT_UP_TO_BOUND);
      QueryResult<byte[]> otherPartition =
          store.query(
              KeyQuery.withKey(key("a")),
              PositionBound.at(Position.emptyPosition().withComponent(TOPIC, 1, 9)),
              config);
      assertThat(otherPartition.isSuccess()).as("a bound on another partition's").isTrue();
    } finally {
      store.close();
    }
  }

  private static Position position(long offset) {
    return Position.emptyPosition().withComponent(TOPIC, 0, offset);
  }
}
