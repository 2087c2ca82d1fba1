package dev.matview.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Runs benchmarks once at a tiny size, so that none can rot between full runs: in every build the
 * ones that run in this JVM, and every one, each on the instances it starts, with {@code
 * -Dbenchmarks.smoke=all} (about six minutes on 2 cores, too long for every build).
 */
class BenchmarkSmokeTests {

  private static final Path WORK_DIR = Path.of("target", "benchmarks-smoke");

  @Test
  void theBenchmarksThatRunInThisJvmRunAtATinySizeAndFillTheirRows() {
    Path report = WORK_DIR.resolveSibling("benchmarks-smoke-in-process.md");
    List<Row> rows =
        BenchmarkRunner.run(
            flags(report, "--only=lookup-path,directory,stream-thread"), Benchmarks.all());
    assertThat(rows).noneMatch(row -> row.verdict() == Verdict.FAILED);
    assertThat(measured(rows)).containsExactlyInAnyOrder(2, 9, 12);
  }

  @Test
  @EnabledIfSystemProperty(named = "benchmarks.smoke", matches = "all")
  void everyBenchmarkRunsAtATinySizeAndFillsItsRows() throws Exception {
    Path report = WORK_DIR.resolveSibling("benchmarks-smoke.md");
    List<Row> rows = BenchmarkRunner.run(flags(report, "--prestart=true"), Benchmarks.all());
    assertThat(rows).noneMatch(row -> row.verdict() == Verdict.FAILED);
    assertThat(measured(rows)).containsExactlyInAnyOrder(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13);
    assertThat(Files.readString(report))
        .contains(Report.BEGIN)
        .contains("| 9 |")
        .contains(
            "catch-up from start, 3 partitions, 600 orders over 300 customers, bound vs none");
  }

  private static Set<Integer> measured(List<Row> rows) {
    return rows.stream()
        .filter(row -> row.verdict() != Verdict.NONE)
        .map(Row::number)
        .collect(Collectors.toSet());
  }

  /** The tiny sizes of every benchmark, and {@code selection}, which picks and starts them. */
  private static Flags flags(Path report, String selection) {
    return Flags.parse(
        "--keys=2000",
        "--observation-keys=2000",
        "--lookup-keys=200",
        "--forwarded-keys=20",
        "--path-keys=100",
        "--point-read-keys=1000",
        "--orders=1500",
        "--customers=100",
        "--failover-keys=500",
        "--partitions=2",
        selection,
        "--rounds=1",
        "--aggregation-rounds=1",
        "--scan-warm-ups=1",
        "--scan-max-warm-ups=2",
        "--warmup-rounds=0",
        "--seconds=0.5",
        "--warmup-seconds=0.3",
        "--connections=4",
        "--jmh-forks=0",
        "--jmh-warmups=1",
        "--jmh-iterations=1",
        "--jmh-millis=100",
        "--session-timeout-ms=2000",
        "--app-jvm-options=-Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
        "--memory-partitions=2",
        "--memory-orders=500",
        "--memory-customers=50",
        "--memory-steady-seconds=1",
        "--memory-trickle-rate=5",
        "--memory-rounds=1",
        "--memory-warmup=false",
        "--memory-large-partitions=3",
        "--memory-large-orders=600",
        "--memory-large-customers=300",
        "--memory-jvm-options=-Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
        "--directory-instances=4",
        "--directory-partitions=40",
        "--position-keys=100",
        "--positions-seconds=0.5",
        "--positions-warmup-seconds=0.3",
        "--rw-orders=5",
        "--changes-keys=5",
        "--changes-rate=50",
        "--changes-seconds=0.5",
        "--changes-warmup-seconds=0.2",
        "--changes-idle=20,50",
        "--changes-heartbeat-seconds=1",
        "--changes-jvm-options=-Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
        "--changes-scale-keys=40",
        "--changes-scale-view-streams=3",
        "--changes-scale-rate=100",
        "--changes-scale-seconds=1",
        "--changes-scale-warmup-seconds=0.3",
        "--changes-scale-backlog=500",
        "--changes-scale-jvm-options=-Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
        "--stream-thread-keys=200",
        "--stream-thread-records=2000",
        "--stream-thread-rounds=1",
        "--work-dir=" + WORK_DIR,
        "--report=" + report);
  }
}
