package dev.matview.replica;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Suppliers of the views' stores, those of another supplier unchanged but for two things: once
 * Kafka Streams has opened a partition of one, it registers its handle, and it refuses updates too
 * large for its changelog ({@link RegisteredKeyValueStore}, {@link SignallingWindowStore}, {@link
 * SignallingSessionStore}).
 */
final class OpenSignallingStores {

  private OpenSignallingStores() {}

  /**
   * Supplies {@link RocksDBKeyValueStore}s named {@code name}, which register with {@code handles}
   * once opened and refuse updates that {@code sizeCheck} refuses, under the metrics scope of
   * Kafka's own RocksDB stores, so that the metrics the store's wrappers record keep their names.
   */
  static KeyValueBytesStoreSupplier keyValue(
      String name, StoreHandles handles, ChangelogSizeCheck sizeCheck) {
    return new KeyValueBytesStoreSupplier() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public KeyValueStore<Bytes, byte[]> get() {
        return new RegisteredKeyValueStore(new RocksDBKeyValueStore(name), handles, sizeCheck);
      }

      @Override
      public String metricsScope() {
        return "rocksdb";
      }
    };
  }

  /**
   * Supplies {@code supplier}'s window stores, registered and size-checked as {@link #keyValue}'s.
   */
  static WindowBytesStoreSupplier window(
      WindowBytesStoreSupplier supplier, StoreHandles handles, ChangelogSizeCheck sizeCheck) {
    return new WindowBytesStoreSupplier() {
      @Override
      public String name() {
        return supplier.name();
      }

      @Override
      public WindowStore<Bytes, byte[]> get() {
        return new SignallingWindowStore(supplier.get(), handles, sizeCheck, supplier.windowSize());
      }

      @Override
      public String metricsScope() {
        return supplier.metricsScope();
      }

      @Override
      public long segmentIntervalMs() {
        return supplier.segmentIntervalMs();
      }

      @Override
      public long windowSize() {
        return supplier.windowSize();
      }

      @Override
      public boolean retainDuplicates() {
        return supplier.retainDuplicates();
      }

      @Override
      public long retentionPeriod() {
        return supplier.retentionPeriod();
      }
    };
  }

  /**
   * Supplies {@code supplier}'s session stores, registered and size-checked as {@link #keyValue}'s.
   */
  static SessionBytesStoreSupplier session(
      SessionBytesStoreSupplier supplier, StoreHandles handles, ChangelogSizeCheck sizeCheck) {
    return new SessionBytesStoreSupplier() {
      @Override
      public String name() {
        return supplier.name();
      }

      @Override
      public SessionStore<Bytes, byte[]> get() {
        return new SignallingSessionStore(supplier.get(), handles, sizeCheck);
      }

      @Override
      public String metricsScope() {
        return supplier.metricsScope();
      }

      @Override
      public long segmentIntervalMs() {
        return supplier.segmentIntervalMs();
      }

      @Override
      public long retentionPeriod() {
        return supplier.retentionPeriod();
      }
    };
  }
}
