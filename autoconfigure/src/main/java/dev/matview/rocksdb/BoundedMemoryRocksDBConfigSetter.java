package dev.matview.rocksdb;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.IndexType;
import org.rocksdb.Options;

/**
 * A {@link RocksDBConfigSetter} that makes every store share one process-wide block cache and write
 * buffer manager, bounding RocksDB off-heap memory per process rather than per store.
 *
 * <p>Register it as {@code rocksdb.config.setter} and put the {@code matview.rocksdb.*} keys of
 * {@link RocksDBMemoryLimits} in the Kafka Streams config.
 */
public class BoundedMemoryRocksDBConfigSetter implements RocksDBConfigSetter {

  /** Creates a setter; Kafka Streams instantiates one per store by reflection. */
  public BoundedMemoryRocksDBConfigSetter() {}

  @Override
  public void setConfig(String storeName, Options options, Map<String, Object> configs) {
    SharedRocksDBMemory memory =
        SharedRocksDBMemory.forLimits(RocksDBMemoryLimits.fromConfigs(configs));
    if (!(options.tableFormatConfig() instanceof BlockBasedTableConfig tableConfig)) {
      throw new IllegalStateException(
          "Cannot bound the memory of RocksDB store '"
              + storeName
              + "': its options do not use a BlockBasedTableConfig");
    }
    tableConfig.setBlockCache(memory.cache());
    tableConfig.setCacheIndexAndFilterBlocks(true);
    tableConfig.setCacheIndexAndFilterBlocksWithHighPriority(true);
    tableConfig.setPinTopLevelIndexAndFilter(true);
    tableConfig.setIndexType(IndexType.kTwoLevelIndexSearch);
    tableConfig.setPartitionFilters(true);
    options.setWriteBufferManager(memory.writeBufferManager());
    options.setTableFormatConfig(tableConfig);
  }

  /** Closes nothing, since the cache and write buffer manager are shared with other stores. */
  @Override
  public void close(String storeName, Options options) {}
}
