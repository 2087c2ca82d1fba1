package dev.matview.benchmarks;

import dev.matview.benchmarks.aggregation.AggregationBenchmark;
import dev.matview.benchmarks.changes.ChangeStreamsBenchmark;
import dev.matview.benchmarks.directory.DirectoryRebuildBenchmark;
import dev.matview.benchmarks.failover.FailoverBenchmark;
import dev.matview.benchmarks.lookups.ForwardedLookupsBenchmark;
import dev.matview.benchmarks.lookups.HttpLookupsBenchmark;
import dev.matview.benchmarks.lookups.LookupPathBenchmark;
import dev.matview.benchmarks.lookups.ObservationsBenchmark;
import dev.matview.benchmarks.lookups.PositionsBenchmark;
import dev.matview.benchmarks.memory.MemoryBenchmark;
import dev.matview.benchmarks.restore.RestoreBenchmark;
import dev.matview.benchmarks.scan.ScanBenchmark;
import dev.matview.benchmarks.streamthread.StreamThreadBenchmark;
import java.util.List;

/**
 * Every benchmark of issue 8's table, in the order of its rows, row 9: issue 9's rebuild of the
 * replica directory at scale, row 10: issue 29's positions, which runs right after row 1 on the
 * same instance, before row 6 kills it, row 11: issue 29's change streams, row 12: issue 45's
 * records/s with waiting reads and change streams, and row 13: issue 47's lookups/s with and
 * without an {@code ObservationRegistry}.
 */
public final class Benchmarks {

  /**
   * Row 7 of issue 8's table, memory, is built apart (package {@code
   * dev.matview.benchmarks.memory}); its benchmark joins {@link #all()} between rows 6 and 8.
   */
  public static final int MEMORY_ROW = 7;

  private Benchmarks() {}

  /** Every benchmark, in the order they run: by row, but row 10 second. */
  public static List<Benchmark> all() {
    return List.of(
        new HttpLookupsBenchmark(),
        new PositionsBenchmark(),
        new LookupPathBenchmark(),
        new ForwardedLookupsBenchmark(),
        new ScanBenchmark(),
        new AggregationBenchmark(),
        new RestoreBenchmark(),
        new MemoryBenchmark(),
        new FailoverBenchmark(),
        new DirectoryRebuildBenchmark(),
        new ChangeStreamsBenchmark(),
        new StreamThreadBenchmark(),
        new ObservationsBenchmark());
  }
}
