package dev.matview.rocksdb;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.apache.kafka.streams.state.internals.BlockBasedTableConfigWithAccessibleCache;
import org.jspecify.annotations.Nullable;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.IndexType;
import org.rocksdb.Options;
import org.rocksdb.Priority;

/**
 * A {@link RocksDBConfigSetter} that makes every store share one process-wide block cache and write
 * buffer manager, bounding RocksDB off-heap memory per process rather than per store, and sizes
 * each store for a process that holds hundreds or thousands of them.
 *
 * <p>What the bound covers: data blocks, index and filter blocks (charged to the cache) and
 * memtables (charged to it through the write buffer manager), which {@link
 * SharedRocksDBMemory#usedBytes()} reports. Index and filter blocks are partitioned; the top level
 * of each, and every block of a level-0 file's, stay pinned in the cache, so that a point read of a
 * store's newest files does not look them up in the cache once per file. Per store it sets memtable
 * blocks of {@link RocksDBMemoryLimits#arenaBlockBytes()}, so a store's memtable costs what it
 * holds rather than a fixed megabyte; a write buffer no larger than a third of the memtables'
 * share; a MANIFEST that preallocates 16 KiB instead of 4 MiB; a table cache of four shards; file
 * write buffers of 16 KiB instead of 64 KiB, which each store's open write-ahead log and MANIFEST
 * hold all the time; one logger for the process ({@link RocksDBLogForwarder}) instead of a {@code
 * LOG} file per store; and two flush threads for the process instead of Kafka Streams' one, so that
 * the flushes the write buffer manager asks for do not queue behind each other. It closes the block
 * cache Kafka Streams made for the store, which the shared one replaces; a subclass that gives the
 * store a cache of its own sets it after this method.
 *
 * <p>What it cannot cover: each open store also costs about 250 KB outside the cache (RocksDB's
 * per-database and per-column-family structures, open files and their buffers), and memtables
 * waiting for a flush may briefly take the cache past its bound when writes outrun the flush
 * threads. Register it as {@code rocksdb.config.setter} and put the {@code matview.rocksdb.*} keys
 * of {@link RocksDBMemoryLimits} in the Kafka Streams config.
 */
public class BoundedMemoryRocksDBConfigSetter implements RocksDBConfigSetter {

  /** Bytes a store's MANIFEST file reserves on disk at a time. */
  static final long MANIFEST_PREALLOCATION_BYTES = 16 * 1024;

  /** Threads the process flushes memtables with, shared by every store. */
  static final int FLUSH_THREADS = 2;

  /** Shard bits of each store's table cache: a store has few files open. */
  static final int TABLE_CACHE_SHARD_BITS = 2;

  /**
   * Largest buffer a store writes a file through: against RocksDB's 1 MiB, 4 KiB made writing and
   * flushing a million records 12 % slower, 16 KiB about 3 %.
   */
  static final long WRITABLE_FILE_BUFFER_BYTES = 16 * 1024;

  private static final long MIN_WRITE_BUFFER_BYTES = 64 * 1024;

  private @Nullable SharedRocksDBMemory memory;

  /** Creates a setter; Kafka Streams instantiates one per store by reflection. */
  public BoundedMemoryRocksDBConfigSetter() {}

  @Override
  public void setConfig(String storeName, Options options, Map<String, Object> configs) {
    RocksDBMemoryLimits limits = RocksDBMemoryLimits.fromConfigs(configs);
    SharedRocksDBMemory memory = SharedRocksDBMemory.forLimits(limits);
    if (!(options.tableFormatConfig() instanceof BlockBasedTableConfig tableConfig)) {
      throw new IllegalStateException(
          "Cannot bound the memory of RocksDB store '"
              + storeName
              + "': its options do not use a BlockBasedTableConfig");
    }
    Cache kafkaStreamsCache = blockCacheOf(tableConfig);
    tableConfig.setBlockCache(memory.cache());
    tableConfig.setCacheIndexAndFilterBlocks(true);
    tableConfig.setCacheIndexAndFilterBlocksWithHighPriority(true);
    tableConfig.setPinTopLevelIndexAndFilter(true);
    tableConfig.setPinL0FilterAndIndexBlocksInCache(true);
    tableConfig.setIndexType(IndexType.kTwoLevelIndexSearch);
    tableConfig.setPartitionFilters(true);
    options.setTableFormatConfig(tableConfig);
    if (kafkaStreamsCache != null && kafkaStreamsCache != memory.cache()) {
      kafkaStreamsCache.close();
    }
    options.setWriteBufferManager(memory.writeBufferManager());
    options.setArenaBlockSize(limits.arenaBlockBytes());
    options.setWriteBufferSize(writeBufferSize(options, limits));
    options.setManifestPreallocationSize(MANIFEST_PREALLOCATION_BYTES);
    options.setTableCacheNumshardbits(TABLE_CACHE_SHARD_BITS);
    options.setWritableFileMaxBufferSize(WRITABLE_FILE_BUFFER_BYTES);
    options.setLogger(RocksDBLogForwarder.shared());
    options.getEnv().setBackgroundThreads(FLUSH_THREADS, Priority.HIGH);
    if (this.memory == null) {
      memory.storeOpened();
      this.memory = memory;
    }
  }

  /** Counts the store as closed; the cache and write buffer manager stay, shared with others. */
  @Override
  public void close(String storeName, Options options) {
    SharedRocksDBMemory opened = this.memory;
    if (opened != null) {
      opened.storeClosed();
      this.memory = null;
    }
  }

  /**
   * The block cache Kafka Streams made for this store alone (50 MB, 64 shards): no table uses it
   * once the shared cache replaces it, yet its shards hold about 25 KB until the store closes.
   */
  private static @Nullable Cache blockCacheOf(BlockBasedTableConfig tableConfig) {
    return (tableConfig instanceof BlockBasedTableConfigWithAccessibleCache kafkaStreamsConfig)
        ? kafkaStreamsConfig.blockCache()
        : null;
  }

  private static long writeBufferSize(Options options, RocksDBMemoryLimits limits) {
    long share = limits.writeBufferBytes() / Math.max(1, options.maxWriteBufferNumber());
    return Math.min(options.writeBufferSize(), Math.max(MIN_WRITE_BUFFER_BYTES, share));
  }
}
