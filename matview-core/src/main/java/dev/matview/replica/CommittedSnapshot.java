package dev.matview.replica;

import java.util.concurrent.atomic.AtomicInteger;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.Snapshot;

/**
 * A RocksDB snapshot of a store as its last committed transaction left it, with the read options
 * that read it, released once the store has moved to a newer one and no read holds it any more.
 *
 * <p>The store holds one reference for as long as it is the current one; each read takes one with
 * {@link #retain()} and gives it back with {@link #release()}. Whoever drops the last frees the
 * snapshot, so a snapshot is never freed under a read on another thread.
 */
final class CommittedSnapshot {

  private final RocksDB db;

  private final Snapshot snapshot;

  private final ReadOptions readOptions;

  private final AtomicInteger references = new AtomicInteger(1);

  private CommittedSnapshot(RocksDB db, Snapshot snapshot) {
    this.db = db;
    this.snapshot = snapshot;
    this.readOptions = new ReadOptions().setSnapshot(snapshot);
  }

  /** The snapshot of {@code db} as it is now, held by the caller. */
  static CommittedSnapshot of(RocksDB db) {
    return new CommittedSnapshot(db, db.getSnapshot());
  }

  /** The options that read the snapshot; valid while the caller holds a reference. */
  ReadOptions readOptions() {
    return this.readOptions;
  }

  /** Takes a reference, unless the snapshot was already freed: then false, and it is not held. */
  boolean retain() {
    int held;
    do {
      held = this.references.get();
      if (held == 0) {
        return false;
      }
    } while (!this.references.compareAndSet(held, held + 1));
    return true;
  }

  /** Gives back a reference; the last one frees the snapshot. */
  void release() {
    if (this.references.decrementAndGet() == 0) {
      this.readOptions.close();
      this.db.releaseSnapshot(this.snapshot);
    }
  }
}
