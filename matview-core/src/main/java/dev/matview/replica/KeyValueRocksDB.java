package dev.matview.replica;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.jspecify.annotations.Nullable;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open RocksDB of one {@link RocksDBKeyValueStore}, laid out as Kafka Streams lays out its
 * timestamped key-value store (under {@code rocksdb/} of the task's state dir, the values in the
 * {@code keyValueWithTimestamp} column family), so that either store opens the other's state.
 *
 * <p>Reads take no lock: RocksDB reads are thread-safe, and the ones under way pass a {@link
 * ReadGate}, whose close waits for them before the database closes; a read after that is refused
 * with an {@link InvalidStateStoreException}, as Kafka's store refuses it. Writes come from the one
 * thread that also closes it (the stream thread, or the thread that restores the store).
 */
final class KeyValueRocksDB {

  private static final Logger log = LoggerFactory.getLogger(KeyValueRocksDB.class);

  private final String name;

  private final RocksDBStoreOptions options;

  private final RocksDB db;

  private final ColumnFamilyHandle values;

  private final ReadGate reads = new ReadGate();

  private final Set<RocksDBRange> ranges = ConcurrentHashMap.newKeySet();

  private final CommittedReads committed;

  KeyValueRocksDB(String name, RocksDBStoreOptions options, RocksDB db, ColumnFamilyHandle values) {
    this.name = name;
    this.options = options;
    this.db = db;
    this.values = values;
    this.committed = new CommittedReads(name, db, values);
  }

  /** The stored value of {@code key}, or {@code null}; on any thread, without a lock. */
  byte @Nullable [] get(byte[] key) {
    int stripe = enter();
    try {
      return this.db.get(this.values, key);
    } catch (RocksDBException ex) {
      throw new ProcessorStateException(
          "Error while getting value for key from store " + this.name, ex);
    } finally {
      this.reads.leave(stripe);
    }
  }

  /** The value of {@code key} as the last committed transaction left it, or {@code null}. */
  byte @Nullable [] committedGet(byte[] key) {
    int stripe = enter();
    try {
      return this.committed.get(key);
    } finally {
      this.reads.leave(stripe);
    }
  }

  /** Makes the database as it is now what {@link #committedGet} reads, unless it is closed. */
  void pinCommitted() {
    whileOpen(this.committed::pin);
  }

  /** Keeps the state the database opened with, to count as committed once confirmed. */
  void pinOpened() {
    whileOpen(this.committed::opened);
  }

  /** The state the database opened with is committed. */
  void confirmOpened() {
    whileOpen(this.committed::confirmOpened);
  }

  private void whileOpen(Runnable action) {
    int stripe = this.reads.enter();
    if (stripe != ReadGate.CLOSED) {
      try {
        action.run();
      } finally {
        this.reads.leave(stripe);
      }
    }
  }

  /**
   * The entries from {@code from} to {@code to}, either {@code null} for no bound, {@code to}
   * included unless {@code toExcluded}, on any thread, as they are now or, when {@code committed},
   * as the last committed transaction left them; closed with the database if not before.
   */
  KeyValueIterator<Bytes, byte[]> range(
      @Nullable Bytes from,
      @Nullable Bytes to,
      boolean forward,
      boolean toExcluded,
      boolean committed) {
    if (from != null && to != null && from.compareTo(to) > 0) {
      log.warn(
          "Returning an empty range of store {}: its lower bound lies above its upper bound, as"
              + " when the bounds are swapped or a serde does not keep the keys' order in bytes",
          this.name);
      return RocksDBRange.empty();
    }
    int stripe = enter();
    try {
      CommittedReads.Iteration iteration =
          committed
              ? this.committed.iterate()
              : new CommittedReads.Iteration(this.db.newIterator(this.values), null);
      RocksDBRange range =
          new RocksDBRange(
              this.name,
              iteration.iterator(),
              from,
              to,
              forward,
              toExcluded,
              (closed) -> {
                this.ranges.remove(closed);
                iteration.release();
              });
      this.ranges.add(range);
      return range;
    } finally {
      this.reads.leave(stripe);
    }
  }

  /** RocksDB's estimate of the keys stored, on any thread. */
  long approximateNumEntries() {
    int stripe = enter();
    try {
      long keys = this.db.getLongProperty(this.values, "rocksdb.estimate-num-keys");
      return (keys < 0) ? Long.MAX_VALUE : keys;
    } catch (RocksDBException ex) {
      throw new ProcessorStateException("Error fetching property from store " + this.name, ex);
    } finally {
      this.reads.leave(stripe);
    }
  }

  /** The bytes of the database's live SST files, on any thread; 0 once closed or unknown. */
  long liveDataBytes() {
    int stripe = this.reads.enter();
    if (stripe == ReadGate.CLOSED) {
      return 0;
    }
    try {
      return this.db.getAggregatedLongProperty("rocksdb.live-sst-files-size");
    } catch (RocksDBException ex) {
      log.debug("Cannot tell the size of store {}", this.name, ex);
      return 0;
    } finally {
      this.reads.leave(stripe);
    }
  }

  /** Stores {@code value} for {@code key}, or removes the key when {@code value} is null. */
  void put(byte[] key, byte @Nullable [] value) {
    try {
      if (value == null) {
        this.db.delete(this.values, this.options.writeOptions(), key);
      } else {
        this.db.put(this.values, this.options.writeOptions(), key, value);
      }
    } catch (RocksDBException ex) {
      throw new ProcessorStateException("Error while writing a key of store " + this.name, ex);
    }
  }

  /** Adds to {@code batch} what {@link #put} would write. */
  void add(WriteBatch batch, byte[] key, byte @Nullable [] value) throws RocksDBException {
    if (value == null) {
      batch.delete(this.values, key);
    } else {
      batch.put(this.values, key, value);
    }
  }

  /**
   * Writes a batch of changelog records at once: they are committed, so that from now on reads of
   * committed state read them.
   */
  void writeRestored(WriteBatch batch) throws RocksDBException {
    write(batch);
    this.committed.pin();
  }

  /** Writes {@code batch} at once. */
  void write(WriteBatch batch) throws RocksDBException {
    this.db.write(this.options.writeOptions(), batch);
  }

  /** The column family that holds the values. */
  ColumnFamilyHandle values() {
    return this.values;
  }

  /** Writes the memtables to SST files and waits for it: what makes writes durable. */
  void flush() {
    try {
      this.db.flush(this.options.flushOptions(), this.values);
    } catch (RocksDBException ex) {
      throw new ProcessorStateException("Error while executing flush from store " + this.name, ex);
    }
  }

  /** Waits for the reads under way, ends the ranges still open, then closes the database. */
  void close() {
    this.reads.close();
    List<RocksDBRange> open = List.copyOf(this.ranges);
    if (!open.isEmpty()) {
      log.warn("Closing {} open iterators for store {}", open.size(), this.name);
      open.forEach(RocksDBRange::close);
    }
    this.committed.close();
    this.values.close();
    this.db.close();
    this.options.close();
  }

  private int enter() {
    int stripe = this.reads.enter();
    if (stripe == ReadGate.CLOSED) {
      throw new InvalidStateStoreException("Store " + this.name + " is currently closed");
    }
    return stripe;
  }
}
