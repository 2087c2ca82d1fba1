package dev.matview.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.kafka.common.utils.AppInfoParser;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests for {@link DirectReads}, on Kafka's real RocksDB store. The first fails when the Kafka
 * Streams version that the build manages no longer offers the internals that lookups read through.
 */
class DirectReadsTests {

  private static final byte[] KEY = "page-1".getBytes(StandardCharsets.UTF_8);

  private static final byte[] STORED = {0, 0, 0, 0, 0, 0, 0, 42, 'c', 'o', 'u', 'n', 't'};

  @TempDir Path stateDir;

  private final StoreHandles handles = new StoreHandles();

  @Test
  void aTableStoreOpenedThroughTheHandlesIsReadDirectlyAndAnswersTheStoredBytes() {
    KeyValueStore<Bytes, byte[]> store =
        this.handles.keyValueStore("clicks", (key, value) -> {}).get();
    store.init(StateStoreContexts.of(this.stateDir), store);
    try {
      store.put(Bytes.wrap(KEY), STORED);
      ReplicaHandle handle = this.handles.handle("clicks", 0);
      assertThat(handle).isNotNull();
      assertThat(handle.readsDirectly())
          .as(
              "Kafka Streams %s still offers the RocksDB store's internal accessors",
              AppInfoParser.getVersion())
          .isTrue();
      assertThat(handle.get(KEY)).isEqualTo(STORED);
      assertThat(handle.get("page-2".getBytes(StandardCharsets.UTF_8))).isNull();
    } finally {
      store.close();
    }
  }

  @Test
  void kafkasRocksDbStoreWithoutItsAccessorsIsRefusedNamingTheKafkaStreamsVersion() {
    KeyValueStore<Bytes, byte[]> store = Stores.persistentTimestampedKeyValueStore("clicks").get();
    store.init(StateStoreContexts.of(this.stateDir), store);
    try {
      NoSuchFieldException missing = new NoSuchFieldException("cfAccessor");
      assertThatIllegalStateException()
          .isThrownBy(() -> DirectReads.of(store, missing))
          .withMessageContaining("Store 'clicks' is Kafka Streams' RocksDB store")
          .withMessageContaining("version " + AppInfoParser.getVersion())
          .withMessageContaining("use the Kafka Streams version that this Matview release manages")
          .withCause(missing);
    } finally {
      store.close();
    }
  }

  @Test
  void anyOtherStoreIsReadThroughItsOwnGet() {
    KeyValueStore<Bytes, byte[]> store = Stores.inMemoryKeyValueStore("clicks").get();
    assertThat(DirectReads.of(store)).isNull();
    assertThat(DirectReads.of(store, new NoSuchFieldException("cfAccessor"))).isNull();
  }
}
