package dev.matview.rocksdb;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBufferManager;

/**
 * The one block cache and write buffer manager that every RocksDB store of a process shares for a
 * given {@link RocksDBMemoryLimits}, so that their combined off-heap memory stays within {@link
 * RocksDBMemoryLimits#totalBytes()}.
 *
 * <p>Memtable memory is charged to the cache through the write buffer manager, so {@link
 * #usedBytes()} covers block cache, index and filter blocks, and memtables together. Instances are
 * kept per distinct limits: two applications in one JVM configured with the same limits share one
 * bounded pool, while applications with different limits each get their own pool (and the process
 * total is then the sum of those bounds). Instances live as long as the process and are never
 * closed, because any open store may still be using them.
 */
public final class SharedRocksDBMemory {

  /** Share of the cache reserved for index and filter blocks, so data blocks do not evict them. */
  static final double HIGH_PRIORITY_POOL_RATIO = 0.1;

  private static final ConcurrentMap<RocksDBMemoryLimits, SharedRocksDBMemory> INSTANCES =
      new ConcurrentHashMap<>();

  private final RocksDBMemoryLimits limits;

  private final Cache cache;

  private final WriteBufferManager writeBufferManager;

  private final AtomicInteger openStores = new AtomicInteger();

  private SharedRocksDBMemory(RocksDBMemoryLimits limits) {
    RocksDB.loadLibrary();
    this.limits = limits;
    this.cache =
        new LRUCache(limits.totalBytes(), -1, limits.strictLimit(), HIGH_PRIORITY_POOL_RATIO);
    this.writeBufferManager = new WriteBufferManager(limits.writeBufferBytes(), this.cache);
  }

  /** Returns the process-wide shared memory for the given limits, creating it on first use. */
  public static SharedRocksDBMemory forLimits(RocksDBMemoryLimits limits) {
    return INSTANCES.computeIfAbsent(limits, SharedRocksDBMemory::new);
  }

  /** Returns every shared memory pool created so far in this process. */
  public static Collection<SharedRocksDBMemory> all() {
    return List.copyOf(INSTANCES.values());
  }

  /** Returns the block cache shared by all stores; callers must not close it. */
  public Cache cache() {
    return this.cache;
  }

  /** Returns the write buffer manager shared by all stores; callers must not close it. */
  public WriteBufferManager writeBufferManager() {
    return this.writeBufferManager;
  }

  public RocksDBMemoryLimits limits() {
    return this.limits;
  }

  /** Returns the bytes currently held by the cache, including memtables charged to it. */
  public long usedBytes() {
    return this.cache.getUsage();
  }

  /** Returns the bytes of cache entries currently pinned by open readers and iterators. */
  public long pinnedBytes() {
    return this.cache.getPinnedUsage();
  }

  /** Returns the configured bound on {@link #usedBytes()}. */
  public long boundBytes() {
    return this.limits.totalBytes();
  }

  /** Returns the share of the bound that memtables may use before the manager forces a flush. */
  public long writeBufferBytes() {
    return this.limits.writeBufferBytes();
  }

  /** Returns how many RocksDB stores (a windowed store's segments each count) use this pool now. */
  public int openStores() {
    return this.openStores.get();
  }

  /** Returns how far {@link #usedBytes()} is over the bound, zero while within it. */
  public long overshootBytes() {
    return Math.max(0, usedBytes() - boundBytes());
  }

  void storeOpened() {
    this.openStores.incrementAndGet();
  }

  void storeClosed() {
    this.openStores.decrementAndGet();
  }

  @Override
  public String toString() {
    return "SharedRocksDBMemory[" + this.limits + "]";
  }
}
