package dev.matview.benchmarks.memory;

import dev.matview.benchmarks.BenchContext;
import dev.matview.benchmarks.Benchmark;
import dev.matview.benchmarks.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Row 7: one instance ({@code --memory-jvm-options}, {@code -Xmx1g} by default) holds the sample's
 * three views over {@code --memory-partitions} partitions (64, 256 and 512 by default), once with
 * Matview's memory bound ({@code --memory-bound-mb}, 256) and once with Kafka Streams' default
 * RocksDB settings. Each run processes {@code --memory-orders} orders published before it starts,
 * then follows a trickle of {@code --memory-trickle-rate} orders a second for {@code
 * --memory-steady-seconds}, while RSS (from {@code /proc}) and RocksDB's shared cache (from the
 * health details) are sampled every second; at the end the JVM's own committed memory is read by
 * native memory tracking and the state dir's disk blocks by {@code du}. Each load starts with a
 * warm-up run, and each kind runs {@code --memory-rounds} times (2) per load in alternating order:
 * whichever ran first on a cold broker took up to twice as long to catch up, and the first run of
 * each load after that, always with the bound, up to half again as long (56.2 and 57.4 s against
 * 41.1 and 38.2 s at 256 partitions in two full runs). Then the same for a large key space ({@code
 * --memory-large-orders} over {@code --memory-large-customers} on {@code
 * --memory-large-partitions}), where a fixed memtable share made the bound cost catch-up time.
 */
public final class MemoryBenchmark implements Benchmark {

  private static final String TITLE = "memory with and without the bound";

  private static final double MIB = 1024 * 1024;

  /** Spread of RSS over the trickle within which it counts as flat. */
  private static final double FLAT_MEGABYTES = 64;

  /** Catch-up with the bound may take this much longer than without it, for a noisy machine. */
  private static final double CATCH_UP_TOLERANCE = 1.10;

  private static final List<Boolean> BOUND_FIRST = List.of(true, false);

  private static final List<Boolean> BOUND_LAST = List.of(false, true);

  @Override
  public int row() {
    return 7;
  }

  @Override
  public String name() {
    return "memory";
  }

  @Override
  public String title() {
    return TITLE;
  }

  @Override
  public List<Row> run(BenchContext context) throws Exception {
    MemorySettings settings = MemorySettings.of(context);
    MemoryRun run = new MemoryRun(context, settings);
    List<Row> rows = new ArrayList<>();
    boolean boundedFirst = false;
    for (MemoryLoad load : settings.loads()) {
      if (settings.warmUp()) {
        context.log(
            TITLE
                + ": a warm-up run at "
                + load.label()
                + ", not counted, so that neither kind pays for the first run of a load");
        run.run(load, true);
      }
      List<MemoryResult> bounded = new ArrayList<>();
      List<MemoryResult> unbounded = new ArrayList<>();
      for (int round = 0; round < settings.rounds(); round++) {
        boundedFirst = !boundedFirst;
        for (boolean withBound : boundedFirst ? BOUND_FIRST : BOUND_LAST) {
          (withBound ? bounded : unbounded).add(run.run(load, withBound));
        }
      }
      rows.addAll(rows(settings, load, bounded, unbounded));
    }
    context.note(
        TITLE,
        "RSS includes the JVM's own committed memory (heap, metaspace, threads, code cache, GC,"
            + " direct buffers), RocksDB's shared cache, and per store about 300 KB that no"
            + " cache accounts for");
    return rows;
  }

  /**
   * The rows of one partition count from its runs of each kind: catch-up as the mean of the runs,
   * every other figure the most any run saw.
   */
  static List<Row> rows(
      MemorySettings settings,
      MemoryLoad load,
      List<MemoryResult> boundedRuns,
      List<MemoryResult> unboundedRuns) {
    return rows(
        settings,
        load,
        MemoryResult.of(boundedRuns),
        MemoryResult.of(unboundedRuns),
        (settings.warmUp()
                ? "runs in alternating order after a warm-up run of the load: "
                : "runs in alternating order: ")
            + seconds(boundedRuns)
            + " s with the bound, "
            + seconds(unboundedRuns)
            + " s without");
  }

  private static String seconds(List<MemoryResult> runs) {
    return String.join(
        ", ",
        runs.stream()
            .map(run -> String.format(Locale.ROOT, "%.1f", run.catchUpSeconds()))
            .toList());
  }

  static List<Row> rows(
      MemorySettings settings,
      MemoryLoad load,
      MemoryResult bounded,
      MemoryResult unbounded,
      String catchUpRuns) {
    String at = ", " + load.label();
    String stores =
        Double.isNaN(bounded.maxOpenStores())
            ? ""
            : " (" + Math.round(bounded.maxOpenStores()) + " stores)";
    return List.of(
        Row.within(
                7,
                "peak RSS" + at + stores + ", bound vs none",
                bounded.peakRssBytes() / MIB,
                unbounded.peakRssBytes() / MIB,
                "MB",
                settings.rssGoalMegabytes())
            .boundedBy(
                "goal: -Xmx + matview.rocksdb.total-memory + 256 MB; the JVM alone committed "
                    + Math.round(bounded.jvmCommittedBytes() / MIB)
                    + " MB ("
                    + bounded.jvmLargest()
                    + "), and RSS beyond it held the cache (at most "
                    + Math.round(bounded.maxCacheBytes() / MIB)
                    + " MB) and "
                    + Math.round(bounded.perStoreOverheadBytes() / 1024)
                    + " KB per open store"),
        Row.within(
                7,
                "RocksDB cache at most (memory.used)" + at,
                bounded.maxCacheBytes() / MIB,
                settings.boundMegabytes(),
                "MB",
                settings.boundMegabytes())
            .boundedBy("baseline column: the bound"),
        Row.within(
                7,
                "RSS spread while trickling" + at + ", bound vs none",
                bounded.steadySpreadBytes() / MIB,
                unbounded.steadySpreadBytes() / MIB,
                "MB",
                FLAT_MEGABYTES)
            .boundedBy("flat: within " + Math.round(FLAT_MEGABYTES) + " MB"),
        Row.atMost(
                7,
                "catch-up from start" + at + ", bound vs none",
                bounded.catchUpSeconds(),
                unbounded.catchUpSeconds(),
                "s",
                CATCH_UP_TOLERANCE)
            .boundedBy(
                "goal: not slower than without the bound, within the machine's noise; mean of "
                    + catchUpRuns),
        Row.info(
            7,
            "JVM's own committed memory (NMT)" + at + ", bound vs none",
            bounded.jvmCommittedBytes() / MIB,
            unbounded.jvmCommittedBytes() / MIB,
            "MB"),
        Row.info(
            7,
            "peak RSS beyond the JVM's committed" + at + ", bound vs none",
            bounded.beyondJvmBytes() / MIB,
            unbounded.beyondJvmBytes() / MIB,
            "MB"),
        Row.info(
            7,
            "RSS per open store beyond the JVM and the cache" + at,
            bounded.perStoreOverheadBytes() / 1024,
            Double.NaN,
            "KB"),
        Row.info(
            7,
            "state dir on disk" + at + ", bound vs none",
            bounded.diskBytes() / MIB,
            unbounded.diskBytes() / MIB,
            "MB"));
  }
}
