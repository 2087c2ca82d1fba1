package dev.matview.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.rocksdb.RocksDBMemoryLimits;
import dev.matview.rocksdb.SharedRocksDBMemory;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** Tests for {@link RocksDBMemoryMetrics} over real RocksDB caches. */
class RocksDBMemoryMetricsTests {

  @Test
  void gaugesTheMemoryUsedAndTheBoundOfEverySharedPool() {
    SharedRocksDBMemory.forLimits(new RocksDBMemoryLimits(8 * 1024 * 1024, 0.25, false));
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new RocksDBMemoryMetrics().bindTo(registry);
    long bound =
        SharedRocksDBMemory.all().stream().mapToLong(SharedRocksDBMemory::boundBytes).sum();
    long used = SharedRocksDBMemory.all().stream().mapToLong(SharedRocksDBMemory::usedBytes).sum();
    assertThat(registry.get("matview.rocksdb.memory.bound").gauge().value())
        .isEqualTo(bound)
        .isGreaterThanOrEqualTo(8 * 1024 * 1024);
    assertThat(registry.get("matview.rocksdb.memory.used").gauge().value())
        .isEqualTo(used)
        .isLessThanOrEqualTo(bound);
  }
}
