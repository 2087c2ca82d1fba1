package dev.matview.replica;

import java.util.Collection;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.BatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.StateRestoreCallback;
import org.apache.kafka.streams.query.Position;
import org.jspecify.annotations.Nullable;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * The restore of a {@link RocksDBKeyValueStore}: {@link ChangelogRestore}, which moves the store's
 * position to its changelog headers' through two internals of Kafka Streams; or, on a Kafka Streams
 * release that lacks them, a restore through the public callback that writes the same batches
 * without positions, so that such a release never stops an application from starting.
 */
final class RestoreCallbacks {

  private static final Log logger = LogFactory.getLog(RestoreCallbacks.class);

  private RestoreCallbacks() {}

  /** The restore of {@code storeName} into the database {@code database} supplies. */
  static StateRestoreCallback of(
      String storeName,
      Supplier<KeyValueRocksDB> database,
      Position position,
      Map<String, Object> configs) {
    try {
      return new ChangelogRestore(storeName, database, position, configs);
    } catch (LinkageError ex) {
      logger.warn(
          "Store "
              + storeName
              + " restores without the positions of its changelog records: this Kafka Streams"
              + " release lacks the internals Matview reads them with ("
              + ex
              + "); its replicas know their position once they process records, and reads bound"
              + " to a position wait for that");
      return unpositioned(storeName, database);
    }
  }

  /** A restore that writes each batch of {@code storeName} in one write batch, positions aside. */
  static BatchingStateRestoreCallback unpositioned(
      String storeName, Supplier<KeyValueRocksDB> database) {
    return (Collection<KeyValue<byte[], byte[]>> records) ->
        write(storeName, database.get(), records, (record) -> record.key, (record) -> record.value);
  }

  /** Writes {@code records}, a batch of the changelog of {@code storeName}, in one write batch. */
  static <R> void write(
      String storeName,
      KeyValueRocksDB open,
      Collection<R> records,
      Function<R, byte[]> key,
      Function<R, byte @Nullable []> value) {
    try (WriteBatch batch = new WriteBatch()) {
      for (R record : records) {
        open.add(batch, key.apply(record), value.apply(record));
      }
      open.writeRestored(batch);
    } catch (RocksDBException ex) {
      throw new ProcessorStateException("Error restoring batch to store " + storeName, ex);
    }
  }
}
