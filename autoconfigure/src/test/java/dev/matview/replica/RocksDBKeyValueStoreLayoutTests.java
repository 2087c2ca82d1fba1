package dev.matview.replica;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.rocksdb.BoundedMemoryRocksDBConfigSetter;
import dev.matview.rocksdb.RocksDBMemoryLimits;
import dev.matview.rocksdb.SharedRocksDBMemory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests for {@link RocksDBKeyValueStore}'s state on disk and in memory: it opens the state of Kafka
 * Streams' own timestamped store and Kafka's store opens its state, values Kafka kept before
 * timestamps are moved with no timestamp, and the application's RocksDB config setter bounds it
 * with the stores of Kafka Streams.
 */
class RocksDBKeyValueStoreLayoutTests {

  private static final String STORE = "orders-per-customer";

  private static final Bytes KEY = Bytes.wrap("alice".getBytes(StandardCharsets.UTF_8));

  @TempDir Path stateDir;

  @Test
  void opensTheStateOfKafkasTimestampedStoreAndKafkasStoreOpensItsState() {
    byte[] kafkas = RocksDBKeyValueStoreTests.value(1, "kafka's");
    KeyValueStore<Bytes, byte[]> kafka = Stores.persistentTimestampedKeyValueStore(STORE).get();
    kafka.init(StateStoreContexts.of(this.stateDir), kafka);
    kafka.put(KEY, kafkas);
    kafka.close();

    RocksDBKeyValueStore store = open(Map.of());
    assertThat(store.get(KEY)).isEqualTo(kafkas);
    byte[] matviews = RocksDBKeyValueStoreTests.value(2, "matview's");
    store.put(KEY, matviews);
    store.close();
    assertThat(this.stateDir.resolve("rocksdb").resolve(STORE)).isDirectory();

    KeyValueStore<Bytes, byte[]> again = Stores.persistentTimestampedKeyValueStore(STORE).get();
    again.init(StateStoreContexts.of(this.stateDir), again);
    try {
      assertThat(again.get(KEY)).isEqualTo(matviews);
    } finally {
      again.close();
    }
  }

  @Test
  void movesTheValuesKafkaKeptBeforeTimestampsWithoutATimestamp() {
    KeyValueStore<Bytes, byte[]> plain = Stores.persistentKeyValueStore(STORE).get();
    plain.init(StateStoreContexts.of(this.stateDir), plain);
    Bytes other = Bytes.wrap("bob".getBytes(StandardCharsets.UTF_8));
    plain.put(KEY, "7".getBytes(StandardCharsets.UTF_8));
    plain.put(other, "8".getBytes(StandardCharsets.UTF_8));
    plain.close();

    RocksDBKeyValueStore store = open(Map.of());
    assertThat(store.get(KEY)).isEqualTo(noTimestamp("7"));
    store.put(other, RocksDBKeyValueStoreTests.value(3, "9"));
    store.close();
    RocksDBKeyValueStore reopened = open(Map.of());
    try {
      assertThat(reopened.get(KEY)).isEqualTo(noTimestamp("7"));
      assertThat(reopened.get(other)).isEqualTo(RocksDBKeyValueStoreTests.value(3, "9"));
    } finally {
      reopened.close();
    }
  }

  @Test
  void sharesTheMemoryBoundOfTheConfiguredSetterAndLeavesItOnClose() throws Exception {
    RocksDBMemoryLimits limits = new RocksDBMemoryLimits(23L * 1024 * 1024 + 7, 0.25, false);
    Map<String, Object> configs = new HashMap<>(limits.toConfigs());
    configs.put(
        StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedMemoryRocksDBConfigSetter.class);
    SharedRocksDBMemory memory = SharedRocksDBMemory.forLimits(limits);
    int before = memory.openStores();
    long usedBefore = memory.usedBytes();

    RocksDBKeyValueStore store = open(configs);
    assertThat(memory.openStores()).isEqualTo(before + 1);
    for (int i = 0; i < 2_000; i++) {
      store.put(
          Bytes.wrap(("key-" + i).getBytes(StandardCharsets.UTF_8)),
          RocksDBKeyValueStoreTests.value(i, "x".repeat(100)));
    }
    assertThat(memory.usedBytes())
        .as("memtables charged to the shared cache")
        .isGreaterThan(usedBefore);
    store.flush();
    assertThat(store.liveDataBytes()).isPositive();
    long flushed = memory.usedBytes();
    for (int i = 0; i < 2_000; i++) {
      store.get(Bytes.wrap(("key-" + i).getBytes(StandardCharsets.UTF_8)));
    }
    assertThat(memory.usedBytes())
        .as("data blocks read into the shared cache")
        .isGreaterThan(flushed);
    store.close();
    assertThat(memory.openStores()).isEqualTo(before);
    assertThat(Files.list(this.stateDir.resolve("rocksdb").resolve(STORE)))
        .as("one logger for the process, no LOG file per store")
        .noneMatch((file) -> file.getFileName().toString().equals("LOG"));
  }

  private RocksDBKeyValueStore open(Map<String, Object> configs) {
    RocksDBKeyValueStore store = new RocksDBKeyValueStore(STORE);
    store.init(new RecordingStoreContext(this.stateDir, configs), store);
    return store;
  }

  /** A value Kafka Streams kept before timestamps, with its timestamp as Kafka converts it: -1. */
  private static byte[] noTimestamp(String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(Long.BYTES + bytes.length).putLong(-1).put(bytes).array();
  }
}
