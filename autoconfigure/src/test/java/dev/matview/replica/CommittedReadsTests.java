package dev.matview.replica;

import static dev.matview.replica.RocksDBKeyValueStoreTests.key;
import static dev.matview.replica.RocksDBKeyValueStoreTests.keys;
import static dev.matview.replica.RocksDBKeyValueStoreTests.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests for reads of committed state through a {@link ReplicaHandle} of Matview's RocksDB store, on
 * real RocksDB: none before Kafka Streams keeps the state the store opened with, then that state; a
 * commit pins what the store holds, a write after it stays unseen until the next one, a restored
 * batch counts as committed, and a range keeps reading its snapshot across a later commit.
 */
class CommittedReadsTests {

  @TempDir Path stateDir;

  @Test
  void answersNothingUntilTheStateItOpenedWithIsKeptThenOnlyWhatCommitsPin() {
    StoreHandles handles = new StoreHandles();
    KeyValueStore<Bytes, byte[]> store = open(handles);
    ReplicaHandle handle = handles.handle("t", 0);
    assertThat(handle).isNotNull();
    assertThatThrownBy(() -> handle.committedGet(key("a").get()))
        .as("the state a store opens with may be wiped by Kafka Streams under exactly-once")
        .isInstanceOf(InvalidStateStoreException.class)
        .hasMessageContaining("no committed state yet");
    handle.keptOpened();
    assertThat(handle.committedGet(key("a").get())).isNull();

    store.put(key("a"), value(1, "one"));
    assertThat(handle.get(key("a").get())).isEqualTo(value(1, "one"));
    assertThat(handle.committedGet(key("a").get())).as("before its commit").isNull();
    handles.transactionCommits().run();
    assertThat(handle.committedGet(key("a").get())).isEqualTo(value(1, "one"));

    store.put(key("a"), value(2, "two"));
    handle.keptOpened();
    assertThat(handle.committedGet(key("a").get()))
        .as("a store written since it opened keeps its commits")
        .isEqualTo(value(1, "one"));
    store.close();
  }

  @Test
  void aRangeReadsItsSnapshotAcrossALaterCommitAndAnotherThreadsCommitPinsNothing()
      throws Exception {
    StoreHandles handles = new StoreHandles();
    KeyValueStore<Bytes, byte[]> store = open(handles);
    ReplicaHandle handle = handles.handle("t", 0);
    store.putAll(
        List.of(KeyValue.pair(key("a"), value(1, "a")), KeyValue.pair(key("b"), value(1, "b"))));
    handles.transactionCommits().run();
    KeyValueIterator<Bytes, byte[]> range = handle.committedRange(null, null);
    store.put(key("c"), value(1, "c"));
    Thread other = new Thread(handles.transactionCommits());
    other.start();
    other.join();
    assertThat(handle.committedGet(key("c").get()))
        .as("a commit of a thread that does not write the store")
        .isNull();
    handles.transactionCommits().run();
    assertThat(keys(range)).as("the range made before the commit").containsExactly("a", "b");
    assertThat(keys(handle.committedRange(null, null))).containsExactly("a", "b", "c");
    store.close();
  }

  @Test
  void aRestoredBatchIsCommittedState() {
    StoreHandles handles = new StoreHandles();
    RecordingStoreContext context = new RecordingStoreContext(this.stateDir, Map.of());
    KeyValueStore<Bytes, byte[]> store = handles.keyValueStore("t", (key, value) -> {}).get();
    store.init(context, store);
    ReplicaHandle handle = handles.handle("t", 0);
    RecordBatchingStateRestoreCallback restore =
        (RecordBatchingStateRestoreCallback) context.restore();
    restore.restoreBatch(
        List.of(new ConsumerRecord<>("app-t-changelog", 0, 0L, key("a").get(), value(1, "one"))));
    assertThat(handle.committedGet(key("a").get())).isEqualTo(value(1, "one"));
    store.close();
  }

  private KeyValueStore<Bytes, byte[]> open(StoreHandles handles) {
    KeyValueStore<Bytes, byte[]> store = handles.keyValueStore("t", (key, value) -> {}).get();
    store.init(new RecordingStoreContext(this.stateDir, Map.of()), store);
    return store;
  }
}
