package dev.matview.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Runs the benchmarks of issue 8 (and of issues 9 and 29), prints their table and writes the
 * report.
 *
 * <p>Run it with {@code mvn -B -pl benchmarks -am package -DskipTests -Pbenchmarks}, flags in
 * {@code -Dbenchmarks.args="..."}:
 *
 * <ul>
 *   <li>{@code --only=lookups,scan}: the benchmarks to run, by name (all by default)
 *   <li>{@code --keys=1000000}: keys of the views that lookups, scans and restores read
 *   <li>{@code --orders=1000000} and {@code --customers=10000}: the aggregation's input
 *   <li>{@code --forwarded-keys=2000}: owned keys looked up in row 3; {@code
 *       --failover-keys=100000}: keys of the cluster without standbys in row 8; {@code
 *       --path-keys=10000}: keys of row 2; {@code --point-read-keys=250000}: keys of row 2's store
 *       read by random key with and without the memory bound
 *   <li>{@code --seconds=10}, {@code --warmup-seconds=3}, {@code --rounds=3}, {@code
 *       --connections=16}, {@code --lookup-keys=100000}: the interleaved HTTP load rounds
 *   <li>{@code --warmup-rounds=1}, {@code --max-warmup-rounds=6}, {@code --warmup-tolerance=0.1}:
 *       unrecorded saturated rounds of each side first, at least the first, then until each side's
 *       rate changed by at most the tolerance from its previous round, at most the second
 *   <li>{@code --scan-warm-ups=8}, {@code --scan-max-warm-ups=14}, {@code
 *       --scan-warmup-tolerance=0.05}, {@code --scan-rounds=3}: unrecorded rounds of row 4, at
 *       least the first, then until both streamed scans' rates changed by at most the tolerance
 *       from their previous round, at most the second; then recorded rounds (its figures are
 *       medians); {@code --aggregation-rounds=2}: rounds of row 5
 *   <li>{@code --session-timeout-ms=6000}, {@code --app-jvm-options=-Xmx512m}, {@code
 *       --container=tomcat}: the app instances, and their servlet container ({@code jetty} or
 *       {@code tomcat})
 *   <li>{@code --jmh-forks=1}, {@code --jmh-warmups=3}, {@code --jmh-iterations=5}, {@code
 *       --jmh-millis=1000}: row 2; {@code --jmh-jfr=DIR} adds a flight recording of each fork
 *   <li>{@code --position-keys=10000}: keys of row 10's lookups with and without {@code
 *       ?position=}, in load rounds of {@code --positions-seconds=5} after {@code
 *       --positions-warmup-seconds=2}; {@code --rw-orders=500}: orders of row 10's
 *       read-your-writes, for each of its two views; {@code --rw-streams-linger-ms}: the {@code
 *       linger.ms} of that instance's Kafka Streams producer (Kafka Streams' 100 ms by default)
 *   <li>{@code --changes-keys=100}, {@code --changes-rate=1000}, {@code
 *       --changes-warmup-seconds=5}, {@code --changes-seconds=20}: row 11's change streams, one per
 *       key, and the orders sent to those keys at that rate, unrecorded then recorded; {@code
 *       --changes-idle=1000,10000}: the idle streams opened after them, measured at each count;
 *       {@code --changes-heartbeat-seconds=15} and {@code --changes-jvm-options=-Xmx2g}: that
 *       instance's {@code matview.changes.heartbeat} and JVM options
 *   <li>{@code --observation-keys=100000}: keys of row 13's two instances, one with Spring Boot's
 *       {@code ObservationRegistry} and one without, looked up in the interleaved HTTP load rounds
 *   <li>{@code --partitions=4}: partitions of the orders topics
 *   <li>{@code --memory-partitions=64,256,512}, {@code --memory-orders=300000}, {@code
 *       --memory-customers=100000}, {@code --memory-steady-seconds=30}, {@code
 *       --memory-trickle-rate=50}, {@code --memory-bound-mb=256}, {@code
 *       --memory-jvm-options=-Xmx1g}, {@code --memory-rounds=2}: row 7, after a warm-up run, one
 *       instance per partition count and round with the bound and one without it, in alternating
 *       order; then the same for a large key space, {@code --memory-large-partitions=256} (0 leaves
 *       it out), {@code --memory-large-orders=1000000} and {@code --memory-large-customers=250000}
 *   <li>{@code --directory-instances=100}, {@code --directory-partitions=1000}, {@code
 *       --directory-views=3}, {@code --directory-goal-micros=2000}: row 9, with the {@code --jmh-*}
 *       flags of row 2
 *   <li>{@code --prestart=false}: whether to load every cluster at once at the start (for the smoke
 *       test: start-ups overlap, but loads then disturb the figures)
 *   <li>{@code --report=docs/benchmarks.md}, {@code --work-dir=target/benchmarks}
 * </ul>
 */
public final class BenchmarkRunner {

  private BenchmarkRunner() {}

  public static void main(String[] args) throws Exception {
    Flags flags = Flags.parse(args);
    List<Row> rows = run(flags, Benchmarks.all());
    boolean failed = rows.stream().anyMatch(row -> row.verdict() == Verdict.FAILED);
    System.exit(failed ? 1 : 0);
  }

  /** Runs the benchmarks that {@code flags} select, prints the table, writes the report. */
  public static List<Row> run(Flags flags, List<Benchmark> benchmarks) {
    Set<String> only =
        Set.copyOf(flags.list("only", benchmarks.stream().map(Benchmark::name).toList()));
    Set<String> known = benchmarks.stream().map(Benchmark::name).collect(Collectors.toSet());
    if (!known.containsAll(only)) {
      throw new IllegalArgumentException("--only names one of " + known + ", not " + only);
    }
    String started = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    Path workDir = Path.of(flags.text("work-dir", "target/benchmarks"));
    WorkDir.clean(workDir);
    List<Row> rows = new ArrayList<>();
    try (BenchContext context = new BenchContext(flags, workDir, System.out)) {
      if (flags.bool("prestart", false)) {
        benchmarks.stream()
            .filter(benchmark -> only.contains(benchmark.name()))
            .flatMap(benchmark -> benchmark.clusters(flags).stream())
            .distinct()
            .forEach(context::prepare);
      }
      for (Benchmark benchmark : benchmarks) {
        if (!only.contains(benchmark.name())) {
          rows.add(Row.none(benchmark.row(), benchmark.title(), "not selected by --only"));
          continue;
        }
        context.log("row " + benchmark.row() + ": " + benchmark.title());
        long begin = System.nanoTime();
        try {
          rows.addAll(benchmark.run(context));
        } catch (Exception ex) {
          context.note(benchmark.title(), "failed: " + ex);
          ex.printStackTrace(System.out);
          rows.add(Row.failed(benchmark.row(), benchmark.title(), String.valueOf(ex.getMessage())));
        }
        context.log(
            "row "
                + benchmark.row()
                + " took "
                + Math.round((System.nanoTime() - begin) / 1e9)
                + " s");
      }
      if (benchmarks.stream().noneMatch(benchmark -> benchmark.row() == Benchmarks.MEMORY_ROW)) {
        rows.add(
            Row.none(Benchmarks.MEMORY_ROW, "memory (RSS over time)", "built apart, not yet here"));
      }
      System.out.println();
      System.out.print(Report.table(rows));
      String reportFile = flags.text("report", "");
      if (!reportFile.isEmpty()) {
        Report.Machine machine =
            new Report.Machine(
                command(args(flags)),
                Runtime.getRuntime().availableProcessors(),
                memory(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
                started);
        Report.write(
            Path.of(reportFile), "Benchmarks", Report.markdown(machine, rows, context.notes()));
        context.log("wrote " + reportFile);
      }
    }
    return rows;
  }

  private static String args(Flags flags) {
    return flags.names().stream()
        .filter(name -> !name.equals("report") && !name.equals("work-dir"))
        .map(name -> "--" + name + "=" + flags.text(name, ""))
        .collect(Collectors.joining(" "));
  }

  private static String command(String args) {
    String base =
        System.getProperty("benchmarks.command", "java ... " + BenchmarkRunner.class.getName());
    return args.isEmpty() ? base : base + " -Dbenchmarks.args=\"" + args + "\"";
  }

  private static String memory() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          long kib = Long.parseLong(line.replaceAll("[^0-9]", ""));
          return Math.round(kib / 1024.0 / 1024.0) + " GiB";
        }
      }
    } catch (java.io.IOException ex) {
      return "unknown (no /proc/meminfo)";
    }
    return "unknown";
  }
}
