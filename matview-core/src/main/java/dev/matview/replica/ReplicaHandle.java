package dev.matview.replica;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.utils.Bytes;
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

  ReplicaHandle(KeyValueStore<Bytes, byte[]> store, int partition) {
    this.store = store;
    this.partition = partition;
  }

  /**
   * The stored value of {@code key} (Kafka Streams' 8-byte timestamp, then the value), or {@code
   * null}, read from RocksDB without a monitor; the store's close waits for this read to end.
   *
   * @throws org.apache.kafka.streams.errors.InvalidStateStoreException when the store is closed
   */
  public byte @Nullable [] get(byte[] key) {
    return this.store.get(Bytes.wrap(key));
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
    if (!isReady(seen)) {
      this.readiness.compareAndSet(seen, seen + 1);
    }
  }

  /** Marks it ready: Kafka Streams ended its restore. */
  void restored() {
    this.readiness.updateAndGet((mark) -> mark | 1);
  }

  /** Marks it not ready: a restore or a standby update of it starts. */
  void updating() {
    this.readiness.updateAndGet((mark) -> (mark | 1) + 1);
  }
}
