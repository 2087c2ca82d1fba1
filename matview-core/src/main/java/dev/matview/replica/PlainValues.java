package dev.matview.replica;

import java.util.List;
import org.apache.kafka.streams.state.TimestampedBytesStore;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Values that a Kafka Streams key-value store kept before it kept timestamps, in RocksDB's default
 * column family. A {@link KeyValueRocksDB} opened on such state moves them once into the
 * timestamped column family, without a timestamp as Kafka Streams converts them; a value already
 * there wins, as it does when Kafka Streams reads its store in that state.
 */
final class PlainValues {

  private static final int ENTRIES_PER_BATCH = 10_000;

  private static final Logger log = LoggerFactory.getLogger(PlainValues.class);

  private PlainValues() {}

  /**
   * Moves every value of {@code plain} into {@code timestamped}, of the store {@code storeName}, in
   * batches written through the write-ahead log, so that a crash part way leaves each key in one of
   * the two.
   */
  static void moveInto(
      String storeName,
      RocksDB db,
      ColumnFamilyHandle plain,
      ColumnFamilyHandle timestamped,
      FlushOptions flush)
      throws RocksDBException {
    long moved = 0;
    try (RocksIterator entries = db.newIterator(plain);
        WriteOptions logged = new WriteOptions()) {
      entries.seekToFirst();
      while (entries.isValid()) {
        try (WriteBatch batch = new WriteBatch()) {
          for (int i = 0; i < ENTRIES_PER_BATCH && entries.isValid(); i++) {
            byte[] key = entries.key();
            if (db.get(timestamped, key) == null) {
              batch.put(
                  timestamped,
                  key,
                  TimestampedBytesStore.convertToTimestampedFormat(entries.value()));
            }
            batch.delete(plain, key);
            moved++;
            entries.next();
          }
          db.write(logged, batch);
        }
      }
      entries.status();
    }
    if (moved > 0) {
      db.flush(flush, List.of(plain, timestamped));
      log.info(
          "Moved {} values of store {} kept without timestamps to its timestamps",
          moved,
          storeName);
    }
  }
}
