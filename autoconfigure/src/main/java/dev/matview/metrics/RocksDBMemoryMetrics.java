package dev.matview.metrics;

import dev.matview.rocksdb.SharedRocksDBMemory;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Collection;
import java.util.function.ToLongFunction;

/** Gauges RocksDB's shared memory over the process's pools, NaN while no store uses one. */
public final class RocksDBMemoryMetrics implements MeterBinder {

  /** Bytes the shared block caches hold, memtables charged to them included. */
  public static final String USED = "matview.rocksdb.memory.used";

  /** Bytes the shared block caches are bounded to. */
  public static final String BOUND = "matview.rocksdb.memory.bound";

  /** RocksDB stores open on the shared pools; a windowed store's segments each count. */
  public static final String STORES = "matview.rocksdb.stores";

  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder(USED, () -> sum(SharedRocksDBMemory::usedBytes))
        .baseUnit(BaseUnits.BYTES)
        .description("Off-heap bytes held by RocksDB's shared block cache, memtables included")
        .register(registry);
    Gauge.builder(BOUND, () -> sum(SharedRocksDBMemory::boundBytes))
        .baseUnit(BaseUnits.BYTES)
        .description("Bound on the off-heap bytes of RocksDB's shared block cache")
        .register(registry);
    Gauge.builder(STORES, () -> sum(SharedRocksDBMemory::openStores))
        .description("RocksDB stores open on the shared memory pools, each segment counted")
        .register(registry);
  }

  private static double sum(ToLongFunction<SharedRocksDBMemory> bytes) {
    Collection<SharedRocksDBMemory> pools = SharedRocksDBMemory.all();
    return pools.isEmpty() ? Double.NaN : pools.stream().mapToLong(bytes).sum();
  }
}
