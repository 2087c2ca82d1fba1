package dev.matview.benchmarks.lookups;

import dev.matview.benchmarks.BenchContext;
import dev.matview.benchmarks.Stats;
import dev.matview.benchmarks.load.LoadResult;
import dev.matview.benchmarks.process.LoadDriverProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Interleaved load rounds against a baseline and Matview (baseline, Matview, baseline, ...) whose
 * figures are the medians over the rounds.
 */
final class LoadRounds {

  private final BenchContext context;

  private final String title;

  private final int rounds;

  private final List<LoadResult> baseline = new ArrayList<>();

  private final List<LoadResult> matview = new ArrayList<>();

  private final List<Double> baselineCpu = new ArrayList<>();

  private final List<Double> matviewCpu = new ArrayList<>();

  private final List<Long> appPids;

  /** Rounds whose app CPU is read from the processes {@code appPids}. */
  LoadRounds(BenchContext context, String title, List<Long> appPids) {
    this.context = context;
    this.title = title;
    this.rounds = context.flags().integer("rounds", 3);
    this.appPids = appPids;
  }

  /**
   * Runs the rounds at saturation, or at {@code rate} requests a second when it is positive; before
   * saturated rounds, {@code --warmup-rounds} unrecorded ones of each side warm up both JITs.
   */
  LoadRounds run(
      LoadDriverProcess baselineLoad,
      int baselinePort,
      LoadDriverProcess matviewLoad,
      int matviewPort,
      double rate) {
    if (rate <= 0) {
      for (int round = 1; round <= this.context.flags().integer("warmup-rounds", 1); round++) {
        this.context.log(this.title + ": warm-up round " + round);
        baselineLoad.saturate(baselinePort);
        matviewLoad.saturate(matviewPort);
      }
    }
    for (int round = 1; round <= this.rounds; round++) {
      this.baseline.add(
          round(baselineLoad, baselinePort, rate, "baseline", round, this.baselineCpu));
      this.matview.add(round(matviewLoad, matviewPort, rate, "matview", round, this.matviewCpu));
    }
    return this;
  }

  /** The median over the baseline's rounds of the apps' CPU time per request, in microseconds. */
  double baselineCpuMicros() {
    return Stats.median(this.baselineCpu);
  }

  /** The median over Matview's rounds of the apps' CPU time per request, in microseconds. */
  double matviewCpuMicros() {
    return Stats.median(this.matviewCpu);
  }

  /** The CPU time the app processes have used so far, in nanoseconds, or -1 where unknown. */
  private long appCpuNanos() {
    long total = 0;
    for (long pid : this.appPids) {
      Duration used =
          ProcessHandle.of(pid).flatMap((handle) -> handle.info().totalCpuDuration()).orElse(null);
      if (used == null) {
        return -1;
      }
      total += used.toNanos();
    }
    return total;
  }

  /** The median over the baseline's rounds of {@code figure}. */
  double baseline(ToDoubleFunction<LoadResult> figure) {
    return Stats.median(this.baseline.stream().map(figure::applyAsDouble).toList());
  }

  /** The median over Matview's rounds of {@code figure}. */
  double matview(ToDoubleFunction<LoadResult> figure) {
    return Stats.median(this.matview.stream().map(figure::applyAsDouble).toList());
  }

  private LoadResult round(
      LoadDriverProcess load, int port, double rate, String side, int round, List<Double> cpu) {
    long cpuBefore = appCpuNanos();
    LoadResult result = rate > 0 ? load.atRate(port, rate) : load.saturate(port);
    long cpuAfter = appCpuNanos();
    double cpuMicros =
        (cpuBefore >= 0 && cpuAfter >= 0 && result.requests() > 0)
            ? (cpuAfter - cpuBefore) / 1000.0 / result.requests()
            : Double.NaN;
    cpu.add(cpuMicros);
    String line =
        side
            + " round "
            + round
            + (rate > 0 ? " at " + Stats.format(rate, "req/s") : " at saturation")
            + ": "
            + Stats.format(result.throughput(), "req/s")
            + ", p50 "
            + Stats.format(result.p50Micros() / 1000, "ms")
            + ", p99 "
            + Stats.format(result.p99Micros() / 1000, "ms")
            + ", "
            + result.errors()
            + " errors, apps' CPU "
            + Stats.format(cpuMicros, "µs")
            + " a request";
    if (result.errors() > 0 || result.requests() == 0) {
      this.context.note(this.title, line);
    } else {
      this.context.log(this.title + ": " + line);
    }
    return result;
  }
}
