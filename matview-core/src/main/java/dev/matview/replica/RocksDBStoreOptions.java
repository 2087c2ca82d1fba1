package dev.matview.replica;

import java.util.Map;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.jspecify.annotations.Nullable;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteOptions;

/**
 * The RocksDB options of one {@link RocksDBKeyValueStore}: those Kafka Streams 4.1's own RocksDB
 * store starts from, then whatever the application's {@code rocksdb.config.setter} changes, called
 * as Kafka Streams calls it (Matview's bounded-memory setter unless the user opted out), so that
 * the store shares the same cache and write buffer manager as Kafka's stores, with the same table
 * options. It owns the native objects until the store's database has closed.
 */
final class RocksDBStoreOptions implements AutoCloseable {

  private static final long BLOCK_CACHE_BYTES = 50L * 1024 * 1024;

  private static final long BLOCK_BYTES = 4 * 1024;

  private static final long WRITE_BUFFER_BYTES = 16L * 1024 * 1024;

  private static final int WRITE_BUFFERS = 3;

  private final String storeName;

  private final Options options = new Options();

  private final CacheTrackingTableConfig tableConfig = new CacheTrackingTableConfig();

  private final LRUCache storeCache = new LRUCache(BLOCK_CACHE_BYTES);

  private final BloomFilter filter = new BloomFilter();

  private final WriteOptions writeOptions = new WriteOptions().setDisableWAL(true);

  private final FlushOptions flushOptions = new FlushOptions().setWaitForFlush(true);

  private final @Nullable RocksDBConfigSetter setter;

  private final DBOptions dbOptions;

  private final ColumnFamilyOptions columnFamilyOptions;

  private RocksDBStoreOptions(String storeName, Map<String, Object> configs) {
    this.storeName = storeName;
    this.tableConfig.setBlockCache(this.storeCache);
    this.tableConfig.setBlockSize(BLOCK_BYTES);
    this.tableConfig.setFilterPolicy(this.filter);
    this.options.optimizeFiltersForHits();
    this.options.setTableFormatConfig(this.tableConfig);
    this.options.setWriteBufferSize(WRITE_BUFFER_BYTES);
    this.options.setCompressionType(CompressionType.NO_COMPRESSION);
    this.options.setCompactionStyle(CompactionStyle.UNIVERSAL);
    this.options.setMaxWriteBufferNumber(WRITE_BUFFERS);
    this.options.setCreateIfMissing(true);
    this.options.setErrorIfExists(false);
    this.options.setInfoLogLevel(InfoLogLevel.ERROR_LEVEL);
    this.options.setIncreaseParallelism(Math.max(Runtime.getRuntime().availableProcessors(), 2));
    try {
      this.setter = configSetter(configs);
      if (this.setter != null) {
        this.setter.setConfig(storeName, this.options, configs);
      }
    } catch (RuntimeException ex) {
      closeOwnObjects();
      throw ex;
    }
    if (this.tableConfig.blockCache() != this.storeCache) {
      this.storeCache.close();
    }
    this.dbOptions = new DBOptions(this.options).setCreateMissingColumnFamilies(true);
    this.columnFamilyOptions = new ColumnFamilyOptions(this.options);
  }

  /**
   * The options of the store {@code storeName} in an application configured with {@code configs}
   * (Kafka Streams' config, where the config setter's class is).
   */
  static RocksDBStoreOptions of(String storeName, Map<String, Object> configs) {
    return new RocksDBStoreOptions(storeName, configs);
  }

  /** The options to open the database with. */
  DBOptions dbOptions() {
    return this.dbOptions;
  }

  /** The options of each column family. */
  ColumnFamilyOptions columnFamilyOptions() {
    return this.columnFamilyOptions;
  }

  /** The options of every write: without the write-ahead log, as Kafka Streams writes. */
  WriteOptions writeOptions() {
    return this.writeOptions;
  }

  /** The options of a flush, which waits for it to end. */
  FlushOptions flushOptions() {
    return this.flushOptions;
  }

  /** Tells the config setter that the store closed, then frees the options: after the database. */
  @Override
  public void close() {
    if (this.setter != null) {
      this.setter.close(this.storeName, this.options);
    }
    this.columnFamilyOptions.close();
    this.dbOptions.close();
    closeOwnObjects();
  }

  private void closeOwnObjects() {
    this.options.close();
    this.writeOptions.close();
    this.flushOptions.close();
    this.filter.close();
    this.storeCache.close();
  }

  private static @Nullable RocksDBConfigSetter configSetter(Map<String, Object> configs) {
    Object configured = configs.get(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG);
    if (configured == null) {
      return null;
    }
    try {
      Class<?> type =
          (configured instanceof Class<?> given)
              ? given
              : Class.forName(
                  configured.toString().trim(), true, RocksDBStoreOptions.class.getClassLoader());
      return (RocksDBConfigSetter) type.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | ClassCastException ex) {
      throw new ProcessorStateException(
          "Cannot create the "
              + StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG
              + " "
              + configured
              + ": it must be a RocksDBConfigSetter with a public constructor without arguments",
          ex);
    }
  }

  /**
   * Kafka Streams' table options, which remember the block cache they were given, so that the
   * store's own cache is freed at once when a config setter replaces it with a shared one.
   */
  private static final class CacheTrackingTableConfig extends BlockBasedTableConfig {

    private @Nullable Cache blockCache;

    @Override
    public BlockBasedTableConfig setBlockCache(Cache cache) {
      this.blockCache = cache;
      return super.setBlockCache(cache);
    }

    @Nullable Cache blockCache() {
      return this.blockCache;
    }
  }
}
