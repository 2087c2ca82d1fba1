package dev.matview.replica;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Opens the RocksDB of a {@link RocksDBKeyValueStore} where Kafka Streams keeps its timestamped
 * key-value store's (under {@code rocksdb/} of the task's state dir, the values in the {@code
 * keyValueWithTimestamp} column family), moving the values of an older, plain store into it.
 */
final class KeyValueRocksDBOpener {

  /** The directory of the task's state dir that holds Kafka Streams' key-value stores. */
  private static final String PARENT_DIRECTORY = "rocksdb";

  /** The column family of Kafka Streams' timestamped key-value store. */
  private static final byte[] VALUES_COLUMN_FAMILY =
      "keyValueWithTimestamp".getBytes(StandardCharsets.UTF_8);

  private KeyValueRocksDBOpener() {}

  /**
   * Opens the database of the store {@code name} under {@code stateDir} with the options that
   * {@code configs}, Kafka Streams' config, give it, creating it when missing.
   */
  static KeyValueRocksDB open(String name, File stateDir, Map<String, Object> configs) {
    File directory = new File(new File(stateDir, PARENT_DIRECTORY), name);
    try {
      Files.createDirectories(directory.toPath());
    } catch (IOException ex) {
      throw new ProcessorStateException("Cannot create the directory of store " + name, ex);
    }
    RocksDBStoreOptions options = RocksDBStoreOptions.of(name, configs);
    List<ColumnFamilyHandle> handles = new ArrayList<>(2);
    RocksDB db;
    try {
      db =
          RocksDB.open(
              options.dbOptions(),
              directory.getAbsolutePath(),
              List.of(
                  new ColumnFamilyDescriptor(
                      RocksDB.DEFAULT_COLUMN_FAMILY, options.columnFamilyOptions()),
                  new ColumnFamilyDescriptor(VALUES_COLUMN_FAMILY, options.columnFamilyOptions())),
              handles);
    } catch (RocksDBException ex) {
      options.close();
      throw new ProcessorStateException("Error opening store " + name + " at " + directory, ex);
    }
    KeyValueRocksDB opened = new KeyValueRocksDB(name, options, db, handles.get(1));
    try (ColumnFamilyHandle plainValues = handles.get(0)) {
      PlainValues.moveInto(name, db, plainValues, opened.values(), options.flushOptions());
    } catch (RocksDBException | RuntimeException ex) {
      opened.close();
      throw new ProcessorStateException("Error upgrading the values of store " + name, ex);
    }
    opened.pinOpened();
    return opened;
  }
}
