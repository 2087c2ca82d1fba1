package dev.matview.replica;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Supplies {@link RocksDBKeyValueStore}s through Kafka Streams' public extension point for
 * key-value stores, under the metrics scope of Kafka's own RocksDB stores, so that the metrics the
 * store's wrappers record keep their names.
 */
final class RocksDBKeyValueStoreSupplier implements KeyValueBytesStoreSupplier {

  /** The metrics scope of Kafka Streams' persistent key-value stores. */
  static final String METRICS_SCOPE = "rocksdb";

  private final String name;

  RocksDBKeyValueStoreSupplier(String name) {
    this.name = name;
  }

  @Override
  public String name() {
    return this.name;
  }

  @Override
  public KeyValueStore<Bytes, byte[]> get() {
    return new RocksDBKeyValueStore(this.name);
  }

  @Override
  public String metricsScope() {
    return METRICS_SCOPE;
  }
}
