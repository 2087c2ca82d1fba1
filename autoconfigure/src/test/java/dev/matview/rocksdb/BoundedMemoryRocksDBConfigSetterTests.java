package dev.matview.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.BlockBasedTableConfigWithAccessibleCache;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.FlushOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.PlainTableConfig;
import org.rocksdb.Priority;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

@ExtendWith(OutputCaptureExtension.class)
class BoundedMemoryRocksDBConfigSetterTests {

  private static final long MIB = 1024 * 1024;

  @TempDir Path tempDir;

  @Test
  void storesConfiguredBySeparateSettersShareOneCacheAndOneWriteBufferManager()
      throws RocksDBException {
    RocksDBMemoryLimits limits = new RocksDBMemoryLimits(40 * MIB, 0.25, false);
    SharedRocksDBMemory memory = SharedRocksDBMemory.forLimits(limits);
    try (Options first = configure("first", limits.toConfigs());
        Options second = configure("second", limits.toConfigs())) {
      assertThat(blockCacheOf(first)).isSameAs(blockCacheOf(second)).isSameAs(memory.cache());
      assertThat(blockCacheOf(first).getNativeHandle())
          .isEqualTo(blockCacheOf(second).getNativeHandle());
      assertThat(first.writeBufferManager())
          .isSameAs(second.writeBufferManager())
          .isSameAs(memory.writeBufferManager());
      try (RocksDB firstDb = open(first, "first")) {
        put(firstDb, 20_000);
        long usedByFirst = memory.usedBytes();
        try (RocksDB secondDb = open(second, "second")) {
          put(secondDb, 20_000);
          assertThat(memory.usedBytes()).isGreaterThan(usedByFirst);
          assertThat(blockCacheUsage(firstDb))
              .isEqualTo(blockCacheUsage(secondDb))
              .isEqualTo(memory.usedBytes());
        }
      }
    }
  }

  @Test
  void limitsComeFromTheConfigs() throws RocksDBException {
    Map<String, Object> configs = new HashMap<>();
    configs.put("application.id", "limits");
    configs.put(RocksDBMemoryLimits.TOTAL_MEMORY_CONFIG, "16777216");
    configs.put(RocksDBMemoryLimits.WRITE_BUFFER_RATIO_CONFIG, "0.5");
    SharedRocksDBMemory memory =
        SharedRocksDBMemory.forLimits(new RocksDBMemoryLimits(16 * MIB, 0.5, false));
    try (Options options = configure("limits", configs);
        RocksDB db = open(options, "limits")) {
      assertThat(memory.boundBytes()).isEqualTo(16 * MIB);
      assertThat(memory.writeBufferBytes()).isEqualTo(8 * MIB);
      assertThat(options.writeBufferManager()).isSameAs(memory.writeBufferManager());
      assertThat(blockCacheOf(options)).isSameAs(memory.cache());
      assertThat(db.getLongProperty("rocksdb.block-cache-capacity")).isEqualTo(16 * MIB);
    }
  }

  @Test
  void writeBufferManagerFlushesMemtablesOnceTheirShareOfTheBoundIsUsed() throws RocksDBException {
    int records = 20_000;
    RocksDBMemoryLimits roomy = new RocksDBMemoryLimits(64 * MIB, 1.0, false);
    RocksDBMemoryLimits tight = new RocksDBMemoryLimits(64 * MIB, 1.0 / 64, false);
    try (Options roomyOptions = configure("roomy", roomy.toConfigs());
        Options tightOptions = configure("tight", tight.toConfigs());
        RocksDB roomyDb = open(roomyOptions, "roomy");
        RocksDB tightDb = open(tightOptions, "tight")) {
      put(roomyDb, records);
      put(tightDb, records);
      assertThat(roomyDb.getLongProperty("rocksdb.num-entries-active-mem-table"))
          .isEqualTo(records);
      assertThat(tightDb.getLongProperty("rocksdb.num-entries-active-mem-table"))
          .isLessThan(records);
    }
  }

  @Test
  void sharedCacheOutlivesAClosedStore() throws RocksDBException {
    RocksDBMemoryLimits limits = new RocksDBMemoryLimits(24 * MIB, 0.25, false);
    SharedRocksDBMemory memory = SharedRocksDBMemory.forLimits(limits);
    BoundedMemoryRocksDBConfigSetter closedSetter = new BoundedMemoryRocksDBConfigSetter();
    try (Options survivorOptions = configure("survivor", limits.toConfigs());
        RocksDB survivor = open(survivorOptions, "survivor")) {
      Options closedOptions = tableFormatted(new Options());
      closedSetter.setConfig("closed", closedOptions, limits.toConfigs());
      RocksDB closed = open(closedOptions, "closed");
      put(closed, 100);
      closedSetter.close("closed", closedOptions);
      closed.close();
      closedOptions.close();

      put(survivor, 100);
      try (FlushOptions flushOptions = new FlushOptions().setWaitForFlush(true)) {
        survivor.flush(flushOptions);
      }
      assertThat(get(survivor, 42)).isEqualTo("value-42");
      try (Options freshOptions = configure("fresh", limits.toConfigs());
          RocksDB fresh = open(freshOptions, "fresh")) {
        put(fresh, 100);
        assertThat(get(fresh, 7)).isEqualTo("value-7");
        assertThat(fresh.getLongProperty("rocksdb.block-cache-capacity")).isEqualTo(24 * MIB);
        assertThat(memory.usedBytes()).isPositive();
        assertThat(blockCacheUsage(fresh)).isEqualTo(memory.usedBytes());
      }
    }
  }

  @Test
  void equalLimitsShareOneInstanceAndDifferentLimitsGetTheirOwn() {
    SharedRocksDBMemory memory =
        SharedRocksDBMemory.forLimits(new RocksDBMemoryLimits(8 * MIB, 0.25, false));
    SharedRocksDBMemory same =
        SharedRocksDBMemory.forLimits(new RocksDBMemoryLimits(8 * MIB, 0.25, false));
    SharedRocksDBMemory strict =
        SharedRocksDBMemory.forLimits(new RocksDBMemoryLimits(8 * MIB, 0.25, true));
    assertThat(same).isSameAs(memory);
    assertThat(strict).isNotSameAs(memory);
    assertThat(strict.cache()).isNotSameAs(memory.cache());
    assertThat(SharedRocksDBMemory.all()).contains(memory, strict);
  }

  @Test
  void sizesEachStoreForAProcessThatHoldsThousands() {
    RocksDBMemoryLimits limits = new RocksDBMemoryLimits(48 * MIB, 0.25, false);
    try (Options options = configure("sized", limits.toConfigs())) {
      assertThat(options.arenaBlockSize()).isEqualTo(limits.arenaBlockBytes()).isEqualTo(8 * 1024);
      assertThat(options.writeBufferSize()).isEqualTo(4 * MIB);
      assertThat(options.manifestPreallocationSize()).isEqualTo(16 * 1024);
      assertThat(options.tableCacheNumshardbits()).isEqualTo(2);
      assertThat(options.writableFileMaxBufferSize()).isEqualTo(16 * 1024);
      assertThat(options.getEnv().getBackgroundThreads(Priority.HIGH)).isEqualTo(2);
    }
    RocksDBMemoryLimits roomy = new RocksDBMemoryLimits(1024 * MIB, 0.5, false);
    try (Options options = configure("roomy", roomy.toConfigs())) {
      assertThat(options.writeBufferSize()).isEqualTo(16 * MIB);
    }
  }

  @Test
  void storesWriteNoLogFileOfTheirOwnAndRocksDBErrorsReachTheApplicationLog(CapturedOutput output)
      throws RocksDBException {
    RocksDBMemoryLimits limits = new RocksDBMemoryLimits(40 * MIB, 0.25, false);
    try (Options options = configure("logged", limits.toConfigs());
        RocksDB db = open(options, "logged")) {
      put(db, 100);
      db.flush(new FlushOptions().setWaitForFlush(true));
      assertThat(get(db, 7)).isEqualTo("value-7");
    }
    assertThat(this.tempDir.resolve("logged")).isNotEmptyDirectory();
    assertThat(this.tempDir.resolve("logged").resolve("LOG")).doesNotExist();
    assertThat(output).as("the error RocksDB logs for every new store").doesNotContain("NotFound");
    RocksDBLogForwarder.shared().log(InfoLogLevel.ERROR_LEVEL, "Compaction error: IO error\n");
    RocksDBLogForwarder.shared().log(InfoLogLevel.FATAL_LEVEL, "Corruption: bad block\n");
    assertThat(output.getOut().lines().filter((line) -> line.contains("org.rocksdb")))
        .anySatisfy(
            (line) -> assertThat(line).contains("WARN").endsWith("Compaction error: IO error"))
        .anySatisfy((line) -> assertThat(line).contains("ERROR").endsWith("Corruption: bad block"));
  }

  @Test
  void countsTheStoresOpenOnAPool() {
    RocksDBMemoryLimits limits = new RocksDBMemoryLimits(40 * MIB, 0.3, false);
    SharedRocksDBMemory memory = SharedRocksDBMemory.forLimits(limits);
    int before = memory.openStores();
    BoundedMemoryRocksDBConfigSetter first = new BoundedMemoryRocksDBConfigSetter();
    BoundedMemoryRocksDBConfigSetter second = new BoundedMemoryRocksDBConfigSetter();
    try (Options firstOptions = tableFormatted(kafkaStreamsDefaults());
        Options secondOptions = tableFormatted(kafkaStreamsDefaults())) {
      first.setConfig("first", firstOptions, limits.toConfigs());
      second.setConfig("second", secondOptions, limits.toConfigs());
      assertThat(memory.openStores()).isEqualTo(before + 2);
      first.close("first", firstOptions);
      first.close("first", firstOptions);
      assertThat(memory.openStores()).isEqualTo(before + 1);
      second.close("second", secondOptions);
      assertThat(memory.openStores()).isEqualTo(before);
    }
  }

  @Test
  void invalidLimitsFailNamingTheKey() {
    Map<String, Object> configs = Map.of(RocksDBMemoryLimits.WRITE_BUFFER_RATIO_CONFIG, "2");
    try (Options options = tableFormatted(new Options())) {
      assertThatIllegalArgumentException()
          .isThrownBy(
              () -> new BoundedMemoryRocksDBConfigSetter().setConfig("store", options, configs))
          .withMessageContaining(RocksDBMemoryLimits.WRITE_BUFFER_RATIO_CONFIG);
    }
  }

  @Test
  void readsLevelZeroFilesWithoutLookingUpTheirIndexAndFilterBlocksInTheCache()
      throws RocksDBException {
    RocksDBMemoryLimits limits = new RocksDBMemoryLimits(24 * MIB, 0.25, false);
    try (Statistics statistics = new Statistics();
        Options options = configure("level-zero", limits.toConfigs()).setStatistics(statistics);
        RocksDB db = open(options, "level-zero");
        FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      put(db, 20_000);
      db.flush(flush);
      assertThat(db.getProperty("rocksdb.num-files-at-level0")).isEqualTo("1");
      long lookupsBefore = indexAndFilterLookups(statistics);
      for (int record = 0; record < 20_000; record += 20) {
        assertThat(get(db, record)).isEqualTo("value-" + record);
      }
      assertThat(indexAndFilterLookups(statistics) - lookupsBefore).isZero();
    }
  }

  private static long indexAndFilterLookups(Statistics statistics) {
    return statistics.getTickerCount(TickerType.BLOCK_CACHE_INDEX_HIT)
        + statistics.getTickerCount(TickerType.BLOCK_CACHE_INDEX_MISS)
        + statistics.getTickerCount(TickerType.BLOCK_CACHE_FILTER_HIT)
        + statistics.getTickerCount(TickerType.BLOCK_CACHE_FILTER_MISS);
  }

  @Test
  void closesTheBlockCacheKafkaStreamsMadeForTheStore() {
    RocksDBMemoryLimits limits = new RocksDBMemoryLimits(40 * MIB, 0.25, false);
    BlockBasedTableConfigWithAccessibleCache tableConfig =
        new BlockBasedTableConfigWithAccessibleCache();
    try (LRUCache kafkaStreamsCache = new LRUCache(50 * MIB);
        Options options = kafkaStreamsDefaults().setTableFormatConfig(tableConfig)) {
      tableConfig.setBlockCache(kafkaStreamsCache);

      new BoundedMemoryRocksDBConfigSetter().setConfig("store", options, limits.toConfigs());

      assertThat(kafkaStreamsCache.isOwningHandle())
          .as("Kafka Streams' cache still open")
          .isFalse();
      assertThat(tableConfig.blockCache()).isSameAs(SharedRocksDBMemory.forLimits(limits).cache());
    }
  }

  @Test
  void rejectsOptionsWithoutBlockBasedTables() {
    try (Options options = new Options().setTableFormatConfig(new PlainTableConfig())) {
      assertThatIllegalStateException()
          .isThrownBy(
              () -> new BoundedMemoryRocksDBConfigSetter().setConfig("plain", options, Map.of()))
          .withMessageContaining("plain");
    }
  }

  @Test
  void boundsTheStoresOfAKafkaStreamsTopology() {
    RocksDBMemoryLimits limits = new RocksDBMemoryLimits(16 * MIB, 0.3, false);
    SharedRocksDBMemory memory = SharedRocksDBMemory.forLimits(limits);
    StreamsBuilder builder = new StreamsBuilder();
    table(builder, "orders");
    table(builder, "customers");
    Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "bounded-memory");
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
    properties.put(StreamsConfig.STATE_DIR_CONFIG, this.tempDir.toString());
    properties.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
    properties.put(
        StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedMemoryRocksDBConfigSetter.class);
    properties.putAll(limits.toConfigs());
    try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), properties)) {
      for (String topic : new String[] {"orders", "customers"}) {
        TestInputTopic<String, String> input =
            driver.createInputTopic(topic, new StringSerializer(), new StringSerializer());
        for (int i = 0; i < 500; i++) {
          input.pipeInput("key-" + i, topic + "-" + i);
        }
      }
      assertThat(storedValue(driver, "orders-store", "key-7")).isEqualTo("orders-7");
      assertThat(storedValue(driver, "customers-store", "key-7")).isEqualTo("customers-7");
      assertThat(memory.usedBytes()).isPositive().isLessThanOrEqualTo(memory.boundBytes());
      assertThat(blockCacheCapacities(driver)).hasSize(2).containsOnly(16 * MIB);
    }
  }

  private static void table(StreamsBuilder builder, String topic) {
    builder.table(
        topic,
        Consumed.with(Serdes.String(), Serdes.String()),
        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as(topic + "-store"));
  }

  private static String storedValue(TopologyTestDriver driver, String store, String key) {
    return driver.<String, String>getTimestampedKeyValueStore(store).get(key).value();
  }

  private static List<Long> blockCacheCapacities(TopologyTestDriver driver) {
    Map<MetricName, ? extends Metric> metrics = driver.metrics();
    return metrics.entrySet().stream()
        .filter((entry) -> entry.getKey().name().equals("block-cache-capacity"))
        .map((entry) -> ((Number) entry.getValue().metricValue()).longValue())
        .toList();
  }

  private static Options configure(String storeName, Map<String, Object> configs) {
    Options options = tableFormatted(kafkaStreamsDefaults());
    new BoundedMemoryRocksDBConfigSetter().setConfig(storeName, options, configs);
    return options;
  }

  /** The write buffers Kafka Streams gives each store before the config setter runs. */
  private static Options kafkaStreamsDefaults() {
    return new Options().setWriteBufferSize(16 * MIB).setMaxWriteBufferNumber(3);
  }

  private static Options tableFormatted(Options options) {
    return options.setCreateIfMissing(true).setTableFormatConfig(new CacheRecordingTableConfig());
  }

  private static Cache blockCacheOf(Options options) {
    Cache cache = ((CacheRecordingTableConfig) options.tableFormatConfig()).blockCache;
    assertThat(cache).isNotNull();
    return cache;
  }

  private RocksDB open(Options options, String name) throws RocksDBException {
    return RocksDB.open(options, this.tempDir.resolve(name).toString());
  }

  private static long blockCacheUsage(RocksDB db) throws RocksDBException {
    return db.getLongProperty("rocksdb.block-cache-usage");
  }

  private static void put(RocksDB db, int records) throws RocksDBException {
    for (int i = 0; i < records; i++) {
      db.put(bytes("key-" + i), bytes("value-" + i));
    }
  }

  private static @Nullable String get(RocksDB db, int record) throws RocksDBException {
    byte[] value = db.get(bytes("key-" + record));
    return (value != null) ? new String(value, StandardCharsets.UTF_8) : null;
  }

  private static byte[] bytes(String value) {
    return value.getBytes(StandardCharsets.UTF_8);
  }

  /** Remembers its block cache, as the table config that Kafka Streams supplies does. */
  private static final class CacheRecordingTableConfig extends BlockBasedTableConfig {

    private @Nullable Cache blockCache;

    @Override
    public BlockBasedTableConfig setBlockCache(Cache blockCache) {
      this.blockCache = blockCache;
      return super.setBlockCache(blockCache);
    }
  }
}
