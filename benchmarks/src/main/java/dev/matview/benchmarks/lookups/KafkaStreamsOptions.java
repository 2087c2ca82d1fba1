package dev.matview.benchmarks.lookups;

import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;

/**
 * The RocksDB options that Kafka Streams 4.1.2's {@code RocksDBStore} opens every store with,
 * before a config setter changes them, and the native objects they hold.
 */
final class KafkaStreamsOptions implements AutoCloseable {

  private static final long BLOCK_CACHE_BYTES = 50L * 1024 * 1024;

  private static final long BLOCK_BYTES = 4096;

  private static final long WRITE_BUFFER_BYTES = 16L * 1024 * 1024;

  private static final int WRITE_BUFFERS = 3;

  private final LRUCache cache = new LRUCache(BLOCK_CACHE_BYTES);

  private final BloomFilter filter = new BloomFilter();

  private final Options options = new Options();

  KafkaStreamsOptions() {
    BlockBasedTableConfig table = new BlockBasedTableConfig();
    table.setBlockCache(this.cache);
    table.setBlockSize(BLOCK_BYTES);
    table.setFilterPolicy(this.filter);
    this.options.optimizeFiltersForHits();
    this.options.setTableFormatConfig(table);
    this.options.setWriteBufferSize(WRITE_BUFFER_BYTES);
    this.options.setCompressionType(CompressionType.NO_COMPRESSION);
    this.options.setCompactionStyle(CompactionStyle.UNIVERSAL);
    this.options.setMaxWriteBufferNumber(WRITE_BUFFERS);
    this.options.setCreateIfMissing(true);
    this.options.setErrorIfExists(false);
    this.options.setInfoLogLevel(InfoLogLevel.ERROR_LEVEL);
    this.options.setIncreaseParallelism(Math.max(Runtime.getRuntime().availableProcessors(), 2));
  }

  /** The options, for a config setter to change and a store to open with. */
  Options options() {
    return this.options;
  }

  @Override
  public void close() {
    this.options.close();
    this.filter.close();
    this.cache.close();
  }
}
