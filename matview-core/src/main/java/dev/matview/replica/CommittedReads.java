package dev.matview.replica;

import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.jspecify.annotations.Nullable;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * Reads of one store's RocksDB as its last committed transaction left it: what no abort can take
 * back under exactly-once. A {@link CommittedSnapshot} is pinned each time a transaction that wrote
 * the store commits, and each time a restore or standby update writes a batch of its changelog,
 * which holds committed records only.
 *
 * <p>What the store holds when it opens is committed only if Kafka Streams keeps it: under
 * exactly-once it wipes a store without a checkpoint, after opening it. So the state it opened with
 * is pinned aside and counts only once confirmed ({@link #confirmOpened()}), when its restore or
 * standby update starts or Kafka Streams runs it; until then no read of committed state is
 * answered.
 */
final class CommittedReads {

  private final String name;

  private final RocksDB db;

  private final ColumnFamilyHandle values;

  private final AtomicReference<@Nullable CommittedSnapshot> current = new AtomicReference<>();

  private @Nullable CommittedSnapshot opened;

  CommittedReads(String name, RocksDB db, ColumnFamilyHandle values) {
    this.name = name;
    this.db = db;
    this.values = values;
  }

  /** Pins the database as it is now, when it opened, to count once confirmed. */
  synchronized void opened() {
    dropOpened();
    this.opened = CommittedSnapshot.of(this.db);
  }

  /** The state the store opened with is committed: Kafka Streams kept it. */
  synchronized void confirmOpened() {
    CommittedSnapshot kept = this.opened;
    this.opened = null;
    if (kept != null && !this.current.compareAndSet(null, kept)) {
      kept.release();
    }
  }

  /** Makes the database as it is now the committed state; reads of the last one end unharmed. */
  synchronized void pin() {
    CommittedSnapshot previous = this.current.getAndSet(CommittedSnapshot.of(this.db));
    if (previous != null) {
      previous.release();
    }
    dropOpened();
  }

  /**
   * The committed value of {@code key}, or {@code null}; throws {@link InvalidStateStoreException}
   * while no committed state is known.
   */
  byte @Nullable [] get(byte[] key) {
    CommittedSnapshot snapshot = retained();
    try {
      return this.db.get(this.values, snapshot.readOptions(), key);
    } catch (RocksDBException ex) {
      throw new ProcessorStateException(
          "Error while getting the committed value of a key from store " + this.name, ex);
    } finally {
      snapshot.release();
    }
  }

  /**
   * An iterator over the committed state, and the snapshot it reads, which the caller releases once
   * it has closed the iterator; throws {@link InvalidStateStoreException} while no committed state
   * is known.
   */
  Iteration iterate() {
    CommittedSnapshot snapshot = retained();
    return new Iteration(this.db.newIterator(this.values, snapshot.readOptions()), snapshot);
  }

  /** Frees the snapshots, once the reads under way have ended: the database closes. */
  synchronized void close() {
    CommittedSnapshot last = this.current.getAndSet(null);
    if (last != null) {
      last.release();
    }
    dropOpened();
  }

  private void dropOpened() {
    CommittedSnapshot dropped = this.opened;
    this.opened = null;
    if (dropped != null) {
      dropped.release();
    }
  }

  private CommittedSnapshot retained() {
    while (true) {
      CommittedSnapshot snapshot = this.current.get();
      if (snapshot == null) {
        throw new InvalidStateStoreException(
            "Store "
                + this.name
                + " has no committed state yet: Kafka Streams has not yet confirmed the state it"
                + " opened with, restored it or committed a transaction that wrote it");
      }
      if (snapshot.retain()) {
        return snapshot;
      }
    }
  }

  /** A RocksDB iterator, and the committed snapshot it reads and holds, if any. */
  record Iteration(RocksIterator iterator, @Nullable CommittedSnapshot snapshot) {

    /** Gives back the snapshot, once the iterator is closed. */
    void release() {
      if (this.snapshot != null) {
        this.snapshot.release();
      }
    }
  }
}
