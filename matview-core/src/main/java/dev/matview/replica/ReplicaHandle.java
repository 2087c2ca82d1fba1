package dev.matview.replica;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.jspecify.annotations.Nullable;

/**
 * One open store partition on this instance, and whether it may answer as the running active
 * replica: true once Kafka Streams ended its restore or said so to a lookup, false again as soon as
 * a restore or standby update of the partition starts.
 *
 * <p>The readiness is one counter: even while not ready, odd while ready. Losing readiness moves it
 * to the next even value, so a lookup that saw it not ready, asked Kafka Streams, and heard "ready"
 * makes it ready only if nothing happened in between ({@link #markReady(long)}).
 *
 * <p>Reads take no lock: the store is Matview's {@link RocksDBKeyValueStore}, whose close waits for
 * the reads under way and refuses those that come after it.
 *
 * <p>It also knows the keys whose latest update Kafka Streams' record cache holds and has not yet
 * written to RocksDB: a read of one of them must go through the cache, as RocksDB has an older
 * value.
 */
public final class ReplicaHandle implements PartitionHandle {

  private final KeyValueStore<Bytes, byte[]> store;

  private final int partition;

  private final AtomicLong readiness = new AtomicLong();

  private final Set<Bytes> unwritten = ConcurrentHashMap.newKeySet();

  /** The thread that writes the store: the one that opened it, then the last that wrote it. */
  private volatile Thread writer = Thread.currentThread();

  private volatile CommittedOffsets committed = CommittedOffsets.NONE;

  private final Supplier<@Nullable AppliedOffset> offset;

  private volatile boolean writtenSinceOpen;

  ReplicaHandle(
      KeyValueStore<Bytes, byte[]> store, int partition, Supplier<@Nullable AppliedOffset> offset) {
    this.store = store;
    this.partition = partition;
    this.offset = offset;
  }

  /**
   * The stored value of {@code key} (Kafka Streams' 8-byte timestamp, then the value), or {@code
   * null}, read from RocksDB without a monitor; the store's close waits for this read to end;
   * throws {@link org.apache.kafka.streams.errors.InvalidStateStoreException} when the store is
   * closed.
   */
  public byte @Nullable [] get(byte[] key) {
    return this.store.get(Bytes.wrap(key));
  }

  /**
   * The stored value of {@code key} as the last committed transaction left it, or {@code null}:
   * never an update that an abort may take back. A store other than Matview's RocksDB store keeps
   * no committed state apart, and answers what it holds; throws {@link
   * org.apache.kafka.streams.errors.InvalidStateStoreException} when the store is closed.
   */
  public byte @Nullable [] committedGet(byte[] key) {
    return (this.store instanceof RocksDBKeyValueStore rocksdb)
        ? rocksdb.open().committedGet(key)
        : this.store.get(Bytes.wrap(key));
  }

  /** The entries in [from, to] as the last committed transaction left them, in key order. */
  public KeyValueIterator<Bytes, byte[]> committedRange(@Nullable Bytes from, @Nullable Bytes to) {
    return (this.store instanceof RocksDBKeyValueStore rocksdb)
        ? rocksdb.open().range(from, to, true, false, true)
        : this.store.range(from, to);
  }

  /** How far the partition had applied its topic when its last transaction committed. */
  public CommittedOffsets committedOffsets() {
    return this.committed;
  }

  /**
   * What the store holds now, which {@code offset} says how far it applied, is committed: its
   * writer's transaction committed, or a batch of its changelog was written. Its snapshot moves
   * before its offsets, so that offsets read first are never newer than the snapshot read next.
   */
  void committed() {
    if (this.store instanceof RocksDBKeyValueStore rocksdb) {
      rocksdb.ifOpen(KeyValueRocksDB::pinCommitted);
    }
    AppliedOffset applied = this.offset.get();
    if (applied != null) {
      this.committed = CommittedOffsets.of(applied);
    }
  }

  /**
   * Kafka Streams kept the state the store opened with: it starts to restore or update it, or runs
   * it, and the store has not been written since it opened.
   */
  void keptOpened() {
    if (this.writtenSinceOpen) {
      return;
    }
    if (this.store instanceof RocksDBKeyValueStore rocksdb) {
      rocksdb.ifOpen(KeyValueRocksDB::confirmOpened);
    }
    AppliedOffset applied = this.offset.get();
    if (applied != null && this.committed.applied() == AppliedOffset.NONE) {
      this.committed = CommittedOffsets.of(applied);
    }
  }

  /** Whether {@code thread} writes the store, so that its transactions' commits commit it. */
  boolean writtenBy(Thread thread) {
    return this.writer == thread;
  }

  /**
   * The stream thread is about to keep an update of {@code key} in the record cache, which writes
   * it to RocksDB when it flushes; until then {@link #isUnwritten} says so.
   */
  public void cached(byte[] key) {
    this.unwritten.add(Bytes.wrap(key));
  }

  /** The record cache wrote the update of {@code key} to RocksDB, on the stream thread. */
  void written(Bytes key) {
    Thread current = Thread.currentThread();
    if (this.writer != current) {
      this.writer = current;
    }
    if (!this.writtenSinceOpen) {
      this.writtenSinceOpen = true;
    }
    if (!this.unwritten.isEmpty()) {
      this.unwritten.remove(key);
    }
  }

  /**
   * Whether the record cache holds an update of {@code key} that RocksDB has not yet: a read of it
   * by {@link #get} would miss that update.
   */
  public boolean isUnwritten(byte[] key) {
    return !this.unwritten.isEmpty() && this.unwritten.contains(Bytes.wrap(key));
  }

  /** Whether the record cache holds an update of any key that RocksDB has not yet. */
  public boolean hasUnwritten() {
    return !this.unwritten.isEmpty();
  }

  /** The bytes of the store's live SST files, 0 for a store that is not on RocksDB or closed. */
  long liveDataBytes() {
    return (this.store instanceof RocksDBKeyValueStore rocksdb) ? rocksdb.liveDataBytes() : 0;
  }

  /** The store partition's bytes store, whose values carry Kafka Streams' 8-byte timestamp. */
  @Override
  public KeyValueStore<Bytes, byte[]> store() {
    return this.store;
  }

  /** The partition this handle holds. */
  @Override
  public int partition() {
    return this.partition;
  }

  /** A mark to pass to {@link #markReady(long)} after asking Kafka Streams. */
  public long readiness() {
    return this.readiness.get();
  }

  /** Whether this replica may answer as the running active replica. */
  public boolean ready() {
    return isReady(this.readiness.get());
  }

  /** Whether {@code mark}, a value of {@link #readiness()}, says ready. */
  public static boolean isReady(long mark) {
    return (mark & 1) == 1;
  }

  /** Marks it ready, unless its readiness changed since {@code seen} was read. */
  public void markReady(long seen) {
    if (!isReady(seen) && this.readiness.compareAndSet(seen, seen + 1)) {
      keptOpened();
    }
  }

  /** Marks it ready: Kafka Streams ended its restore. */
  void restored() {
    this.readiness.updateAndGet((mark) -> mark | 1);
    keptOpened();
  }

  /** Marks it not ready: a restore or a standby update of it starts. */
  void updating() {
    this.readiness.updateAndGet((mark) -> (mark | 1) + 1);
  }
}
