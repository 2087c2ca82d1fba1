package dev.matview.health;

import dev.matview.rocksdb.SharedRocksDBMemory;
import java.util.Collection;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Judges whether RocksDB's shared caches hold more than their bound, as when more stores are open
 * than it was sized for or writes outrun the flushes.
 */
public final class MemoryPressure {

  /** The property that sets the bound, named in the reason. */
  static final String PROPERTY = "matview.rocksdb.total-memory";

  private final Supplier<Collection<SharedRocksDBMemory>> pools;

  /** Judges the pools {@code pools} supplies, such as {@link SharedRocksDBMemory#all()}. */
  public MemoryPressure(Supplier<Collection<SharedRocksDBMemory>> pools) {
    this.pools = pools;
  }

  /** Reads the caches now and judges them; empty while no store uses a bounded pool. */
  public @Nullable Report report() {
    Collection<SharedRocksDBMemory> pools = this.pools.get();
    if (pools.isEmpty()) {
      return null;
    }
    long used = 0;
    long bound = 0;
    long pinned = 0;
    long overshoot = 0;
    int stores = 0;
    for (SharedRocksDBMemory pool : pools) {
      used += pool.usedBytes();
      bound += pool.boundBytes();
      pinned += pool.pinnedBytes();
      overshoot += pool.overshootBytes();
      stores += pool.openStores();
    }
    String reason =
        (overshoot == 0)
            ? null
            : ("RocksDB holds %s, %s over its bound %s=%s, with %d stores open: raise the bound, or"
                    + " run more instances so that each holds fewer partitions")
                .formatted(
                    DiskPressure.readable(used),
                    DiskPressure.readable(overshoot),
                    PROPERTY,
                    DiskPressure.readable(bound),
                    stores);
    return new Report(used, bound, pinned, overshoot, stores, reason);
  }

  /**
   * The judgement ({@code reason} null within the bound) and what it was made from; {@code
   * pinnedBytes} are entries readers hold, which the cache cannot evict.
   */
  public record Report(
      long usedBytes,
      long boundBytes,
      long pinnedBytes,
      long overshootBytes,
      int openStores,
      @Nullable String reason) {}
}
