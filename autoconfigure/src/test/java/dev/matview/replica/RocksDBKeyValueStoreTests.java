package dev.matview.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.processor.BatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.internals.ChangelogRecordDeserializationHelper;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.internals.PositionSerde;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests for {@link RocksDBKeyValueStore}, on real RocksDB in a real context of Kafka Streams' test
 * utilities: what Kafka's store answers, its restore and its position, and its refusals once closed
 * ({@link RocksDBQueriesTests} for its IQv2 queries). The restore test fails when Kafka Streams no
 * longer passes the changelog's positions.
 */
class RocksDBKeyValueStoreTests {

  private static final String TOPIC = "orders";

  @TempDir Path stateDir;

  private final List<RocksDBKeyValueStore> opened = new ArrayList<>();

  @AfterEach
  void closeStores() {
    this.opened.forEach(RocksDBKeyValueStore::close);
  }

  @Test
  void putsGetsAndDeletesTimestampedValuesAsKafkasStoreDoes() {
    RocksDBKeyValueStore store = open(context());
    assertThat(store.persistent()).isTrue();
    assertThat(store.isOpen()).isTrue();
    store.put(key("a"), value(1, "one"));
    assertThat(store.get(key("a"))).isEqualTo(value(1, "one"));
    assertThat(store.get(key("b"))).isNull();
    assertThat(store.putIfAbsent(key("a"), value(2, "two"))).isEqualTo(value(1, "one"));
    assertThat(store.putIfAbsent(key("b"), value(2, "two"))).isNull();
    assertThat(store.get(key("b"))).isEqualTo(value(2, "two"));
    store.putAll(
        List.of(KeyValue.pair(key("c"), value(3, "three")), KeyValue.pair(key("a"), null)));
    assertThat(store.get(key("a"))).as("removed by a null in a batch").isNull();
    assertThat(store.delete(key("b"))).isEqualTo(value(2, "two"));
    assertThat(store.get(key("b"))).isNull();
    store.put(key("c"), null);
    assertThat(store.get(key("c"))).isNull();
    assertThat(store.approximateNumEntries()).isNotNegative();
  }

  @Test
  void readsRangesBothWaysWithOpenBoundsAndPrefixes() {
    RocksDBKeyValueStore store = open(context());
    for (String key : List.of("a", "b", "ba", "bb", "c", "\u00ff\u00ff")) {
      store.put(key(key), value(1, key));
    }
    store.put(Bytes.wrap(new byte[] {(byte) 0xff, (byte) 0xff, 1}), value(1, "last"));
    assertThat(keys(store.range(key("b"), key("bb")))).containsExactly("b", "ba", "bb");
    assertThat(keys(store.range(null, key("b")))).containsExactly("a", "b");
    assertThat(keys(store.reverseRange(key("b"), key("c")))).containsExactly("c", "bb", "ba", "b");
    assertThat(keys(store.reverseRange(key("bb"), null)))
        .containsExactly("\u00ff\u00ff\u0001", "\u00ff\u00ff", "c", "bb");
    assertThat(keys(store.range(key("c"), key("a")))).as("bounds swapped").isEmpty();
    assertThat(keys(store.all())).hasSize(7).startsWith("a", "b", "ba", "bb", "c");
    assertThat(keys(store.reverseAll())).hasSize(7).endsWith("c", "bb", "ba", "b", "a");
    assertThat(keys(store.prefixScan("b", Serdes.String().serializer())))
        .containsExactly("b", "ba", "bb");
    assertThat(
            keys(
                store.prefixScan(
                    new byte[] {(byte) 0xff, (byte) 0xff}, Serdes.ByteArray().serializer())))
        .as("a prefix with no key after it")
        .hasSize(2);
    try (KeyValueIterator<Bytes, byte[]> range = store.range(key("b"), null)) {
      assertThat(range.peekNextKey()).isEqualTo(key("b"));
      assertThat(range.next().value).isEqualTo(value(1, "b"));
    }
  }

  @Test
  void opensAgainWithItsEntriesAndThePositionOfItsLastCommit() throws Exception {
    RecordingStoreContext context = context();
    RocksDBKeyValueStore store = open(context);
    context.processing(TOPIC, 0, 41);
    store.put(key("a"), value(1, "one"));
    context.processing(TOPIC, 0, 42);
    store.put(key("b"), value(2, "two"));
    assertThat(store.getPosition()).isEqualTo(position(42));
    store.flush();
    context.commit();
    context.processing(TOPIC, 0, 43);
    store.put(key("c"), value(3, "three"));
    store.close();
    assertThat(store.isOpen()).isFalse();

    RocksDBKeyValueStore reopened = open(context());
    assertThat(reopened.get(key("a"))).isEqualTo(value(1, "one"));
    assertThat(reopened.get(key("b"))).isEqualTo(value(2, "two"));
    assertThat(reopened.getPosition())
        .as("what the checkpoint says, which the changelog then restores past")
        .isEqualTo(position(42));
    reopened.close();
    store.init(context, store);
    assertThat(store.get(key("b"))).isEqualTo(value(2, "two"));
    assertThat(store.getPosition())
        .as("the same store opened again, as Kafka Streams revives a task")
        .isEqualTo(position(42));
  }

  @Test
  void restoresEachBatchInOneWriteAndMovesThePositionToTheChangelogs() {
    RecordingStoreContext context =
        new RecordingStoreContext(
            this.stateDir,
            Map.of(StreamsConfig.InternalConfig.IQ_CONSISTENCY_OFFSET_VECTOR_ENABLED, true));
    RocksDBKeyValueStore store = open(context);
    store.put(key("gone"), value(1, "old"));
    assertThat(context.restore())
        .as("Kafka Streams passes the changelog's headers to this kind of callback alone")
        .isInstanceOf(RecordBatchingStateRestoreCallback.class);
    RecordBatchingStateRestoreCallback restore =
        (RecordBatchingStateRestoreCallback) context.restore();

    restore.restoreBatch(
        List.of(
            changelog(0, "a", value(1, "one"), 7),
            changelog(1, "gone", null, 8),
            changelog(2, "b", value(2, "two"), 9)));
    assertThat(store.get(key("a"))).isEqualTo(value(1, "one"));
    assertThat(store.get(key("gone"))).isNull();
    assertThat(store.getPosition()).isEqualTo(position(9));

    assertThatThrownBy(
            () ->
                restore.restoreBatch(
                    List.of(
                        changelog(3, "c", value(3, "three"), 10),
                        changelog(4, null, value(4, "four"), 11))))
        .isInstanceOf(NullPointerException.class);
    assertThat(store.get(key("c"))).as("nothing of a batch that failed part way").isNull();
    assertThat(store.getPosition()).isEqualTo(position(9));
  }

  @Test
  void restoresWithoutPositionsThroughThePublicCallbackWhereKafkasInternalsAreMissing() {
    RocksDBKeyValueStore store = open(context());
    store.put(key("gone"), value(1, "old"));
    Position before = store.getPosition();
    BatchingStateRestoreCallback restore =
        RestoreCallbacks.unpositioned("orders-per-customer", store::open);

    restore.restoreAll(
        List.of(
            KeyValue.pair(key("a").get(), value(1, "one")),
            KeyValue.pair(key("gone").get(), null)));

    assertThat(store.get(key("a"))).isEqualTo(value(1, "one"));
    assertThat(store.get(key("gone"))).isNull();
    assertThat(store.getPosition()).as("no position without the headers").isEqualTo(before);
  }

  @Test
  void refusesReadsOnceClosedAsAHandleExpects() {
    StoreHandles handles = new StoreHandles();
    var store = handles.keyValueStore("t", (key, value) -> {}).get();
    store.init(context(), store);
    store.put(key("a"), value(1, "one"));
    ReplicaHandle handle = handles.handle("t", 0);
    assertThat(handle).isNotNull();
    assertThat(handle.get(key("a").get())).isEqualTo(value(1, "one"));
    KeyValueIterator<Bytes, byte[]> range = handle.store().all();
    store.close();
    assertThatThrownBy(() -> handle.get(key("a").get()))
        .isInstanceOf(InvalidStateStoreException.class)
        .hasMessageContaining("closed");
    assertThatThrownBy(range::hasNext).isInstanceOf(InvalidStateStoreException.class);
    assertThatThrownBy(() -> handle.store().all()).isInstanceOf(InvalidStateStoreException.class);
    assertThat(handle.store().isOpen()).isFalse();
    assertThat(handle.liveDataBytes()).isZero();
    range.close();
    handle.store().flush();
    store.close();
  }

  private RecordingStoreContext context() {
    return new RecordingStoreContext(this.stateDir, Map.of());
  }

  private RocksDBKeyValueStore open(RecordingStoreContext context) {
    RocksDBKeyValueStore store = new RocksDBKeyValueStore("orders-per-customer");
    store.init(context, store);
    this.opened.add(store);
    return store;
  }

  private static Position position(long offset) {
    return Position.emptyPosition().withComponent(TOPIC, 0, offset);
  }

  /** A changelog record at {@code offset} whose headers put the store at {@code position}. */
  private static ConsumerRecord<byte[], byte[]> changelog(
      long offset, @Nullable String key, byte @Nullable [] value, long position) {
    RecordHeaders headers = new RecordHeaders();
    headers.add(ChangelogRecordDeserializationHelper.CHANGELOG_VERSION_HEADER_RECORD_CONSISTENCY);
    headers.add(
        new RecordHeader(
            ChangelogRecordDeserializationHelper.CHANGELOG_POSITION_HEADER_KEY,
            PositionSerde.serialize(position(position)).array()));
    return new ConsumerRecord<>(
        "app-orders-per-customer-changelog",
        0,
        offset,
        0L,
        TimestampType.CREATE_TIME,
        0,
        0,
        (key != null) ? key(key).get() : null,
        value,
        headers,
        Optional.empty());
  }

  static Bytes key(String key) {
    return Bytes.wrap(key.getBytes(StandardCharsets.ISO_8859_1));
  }

  /** Kafka Streams' 8-byte timestamp, then {@code text}. */
  static byte[] value(long timestamp, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(Long.BYTES + bytes.length).putLong(timestamp).put(bytes).array();
  }

  static List<String> keys(KeyValueIterator<Bytes, byte[]> range) {
    List<String> keys = new ArrayList<>();
    try (range) {
      range.forEachRemaining(
          (entry) -> keys.add(new String(entry.key.get(), StandardCharsets.ISO_8859_1)));
    }
    return keys;
  }
}
