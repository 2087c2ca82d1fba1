package dev.matview.benchmarks.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.matview.benchmarks.Row;
import dev.matview.benchmarks.Verdict;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryBenchmarkTests {

  private static final long MIB = 1024 * 1024;

  private final MemorySettings settings =
      new MemorySettings(
          List.of(64),
          1_000,
          100,
          Duration.ofSeconds(5),
          10,
          256,
          List.of("-Xmx512m"),
          512,
          2,
          true,
          256,
          1_000_000,
          250_000);

  private final MemoryLoad load = new MemoryLoad(64, 1_000, 100, false);

  @Test
  void readsTheHeapFromTheJvmOptions() {
    assertThat(MemorySettings.heapMegabytes(List.of("-XX:+UseG1GC", "-Xmx512m"))).isEqualTo(512);
    assertThat(MemorySettings.heapMegabytes(List.of("-Xmx2g"))).isEqualTo(2048);
    assertThat(MemorySettings.heapMegabytes(List.of("-Xmx1048576k"))).isEqualTo(1024);
    assertThatIllegalArgumentException()
        .isThrownBy(() -> MemorySettings.heapMegabytes(List.of("-Xss1m")))
        .withMessageContaining("-Xmx")
        .withMessageContaining("--memory-jvm-options");
  }

  @Test
  void runsEachPartitionCountThenTheLargeKeySpaceWhichItsFiguresName() {
    assertThat(this.settings.loads())
        .containsExactly(
            new MemoryLoad(64, 1_000, 100, false), new MemoryLoad(256, 1_000_000, 250_000, true));
    assertThat(this.settings.loads().get(1).label())
        .isEqualTo("256 partitions, 1,000,000 orders over 250,000 customers");
    assertThat(this.settings.loads().get(1).name()).isEqualTo("large-256");
    assertThat(this.load.label()).isEqualTo("64 partitions");
  }

  @Test
  void theRssGoalIsHeapPlusBoundPlus256Megabytes() {
    assertThat(this.settings.rssGoalMegabytes()).isEqualTo(512 + 256 + 256);
  }

  @Test
  void rowsJudgeTheBoundedRunAgainstItsGoalsAndShowTheUnboundedBeside() {
    MemoryResult bounded =
        new MemoryResult(
            64,
            true,
            50,
            900 * MIB,
            880 * MIB,
            900 * MIB,
            200.0 * MIB,
            192,
            700 * MIB,
            "Java Heap 512 MB",
            10 * MIB);
    MemoryResult unbounded =
        new MemoryResult(
            64,
            false,
            40,
            1_200 * MIB,
            1_000 * MIB,
            1_200 * MIB,
            Double.NaN,
            Double.NaN,
            700 * MIB,
            "Java Heap 512 MB",
            800 * MIB);
    List<Row> rows =
        MemoryBenchmark.rows(this.settings, this.load, List.of(bounded), List.of(unbounded));
    assertThat(rows).hasSize(8).allMatch(row -> row.number() == 7);
    assertThat(rows.get(0).bound())
        .contains("the JVM alone committed 700 MB (Java Heap 512 MB)")
        .contains("cache (at most 200 MB) and 0 KB per open store");
    assertThat(rows.get(0).figure()).contains("64 partitions (192 stores)");
    assertThat(rows.get(0).measured()).isEqualTo("900 MB");
    assertThat(rows.get(0).baseline()).isEqualTo("1,200 MB");
    assertThat(rows.get(0).verdict()).isEqualTo(Verdict.MET);
    assertThat(rows.get(1).verdict()).isEqualTo(Verdict.MET);
    assertThat(rows.get(2).measured()).isEqualTo("20 MB");
    assertThat(rows.get(2).verdict()).isEqualTo(Verdict.MET);
    assertThat(rows.get(3).ratio()).isEqualTo(1.25);
    assertThat(rows.get(3).verdict()).isEqualTo(Verdict.MISSED);
    assertThat(rows.get(3).bound()).contains("50.0 s with the bound, 40.0 s without");
    assertThat(rows.get(5).measured()).isEqualTo("200 MB");
    assertThat(rows.get(5).verdict()).isEqualTo(Verdict.INFO);
    assertThat(rows.get(6).measured()).isEqualTo("0 KB");
  }

  @Test
  void aCacheOverItsBoundMissesItsGoal() {
    MemoryResult over =
        new MemoryResult(
            256,
            true,
            50,
            900 * MIB,
            880 * MIB,
            900 * MIB,
            300.0 * MIB,
            768,
            700 * MIB,
            "Java Heap 512 MB",
            10 * MIB);
    List<Row> rows = MemoryBenchmark.rows(this.settings, this.load, List.of(over), List.of(over));
    assertThat(rows.get(1).verdict()).isEqualTo(Verdict.MISSED);
  }

  @Test
  void severalRunsCountTheMeanCatchUpAndTheMostOfEverythingElse() {
    MemoryResult calm =
        new MemoryResult(
            64,
            true,
            40,
            900 * MIB,
            880 * MIB,
            890 * MIB,
            100.0 * MIB,
            192,
            700 * MIB,
            "calm",
            10 * MIB);
    MemoryResult busy =
        new MemoryResult(
            64,
            true,
            60,
            950 * MIB,
            850 * MIB,
            900 * MIB,
            90.0 * MIB,
            190,
            720 * MIB,
            "busy",
            12 * MIB);
    MemoryResult both = MemoryResult.of(List.of(calm, busy));
    assertThat(both.catchUpSeconds()).isEqualTo(50);
    assertThat(both.peakRssBytes()).isEqualTo(950 * MIB);
    assertThat(both.steadySpreadBytes()).isEqualTo(50 * MIB);
    assertThat(both.maxCacheBytes()).isEqualTo(100.0 * MIB);
    assertThat(both.maxOpenStores()).isEqualTo(192);
    assertThat(both.jvmLargest()).isEqualTo("busy");
    assertThat(both.diskBytes()).isEqualTo(12 * MIB);
    List<Row> rows =
        MemoryBenchmark.rows(this.settings, this.load, List.of(calm, busy), List.of(calm));
    assertThat(rows.get(3).bound()).contains("40.0, 60.0 s with the bound, 40.0 s without");
  }
}
