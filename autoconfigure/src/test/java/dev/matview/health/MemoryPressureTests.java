package dev.matview.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.rocksdb.RocksDBMemoryLimits;
import dev.matview.rocksdb.SharedRocksDBMemory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

class MemoryPressureTests {

  @TempDir Path dir;

  @Test
  void reportsNothingWhileNoStoreUsesABoundedPool() {
    assertThat(new MemoryPressure(List::of).report()).isNull();
  }

  @Test
  void withinTheBoundThereIsNoReason() {
    SharedRocksDBMemory pool =
        SharedRocksDBMemory.forLimits(new RocksDBMemoryLimits(96L << 20, 0.25, false));
    MemoryPressure.Report report = new MemoryPressure(() -> List.of(pool)).report();
    assertThat(report).isNotNull();
    assertThat(report.boundBytes()).isEqualTo(96L << 20);
    assertThat(report.usedBytes()).isLessThanOrEqualTo(report.boundBytes());
    assertThat(report.overshootBytes()).isZero();
    assertThat(report.reason()).isNull();
  }

  @Test
  void anOvershootIsAReasonThatNamesTheBoundAndTheFix() throws RocksDBException {
    SharedRocksDBMemory tiny =
        SharedRocksDBMemory.forLimits(new RocksDBMemoryLimits(1024, 0.25, false));
    try (Options options =
            new Options()
                .setCreateIfMissing(true)
                .setWriteBufferManager(tiny.writeBufferManager());
        RocksDB db = RocksDB.open(options, this.dir.toString())) {
      for (int i = 0; i < 1_000; i++) {
        db.put(("key-" + i).getBytes(StandardCharsets.UTF_8), new byte[100]);
      }
      MemoryPressure.Report report = new MemoryPressure(() -> List.of(tiny)).report();
      assertThat(report).isNotNull();
      assertThat(report.overshootBytes()).isEqualTo(report.usedBytes() - 1024).isPositive();
      assertThat(report.reason())
          .contains("over its bound matview.rocksdb.total-memory=1KB")
          .contains("raise the bound, or run more instances");
    }
  }
}
