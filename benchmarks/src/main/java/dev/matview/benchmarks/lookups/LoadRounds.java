package dev.matview.benchmarks.lookups;

import dev.matview.benchmarks.BenchContext;
import dev.matview.benchmarks.Stats;
import dev.matview.benchmarks.load.LoadResult;
import dev.matview.benchmarks.process.LoadDriverProcess;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Interleaved load rounds against a baseline and Matview (baseline, Matview, Matview, baseline,
 * ...) whose figures are the medians over the rounds.
 */
final class LoadRounds {

  private final BenchContext context;

  private final String title;

  private final int rounds;

  private final Side baseline;

  private final Side matview;

  /** Rounds whose app CPU is read from the processes {@code appPids}, on both sides. */
  LoadRounds(BenchContext context, String title, List<Long> appPids) {
    this(context, title, appPids, appPids);
  }

  /**
   * Rounds whose app CPU is read from the processes {@code baselinePids} in the baseline's rounds
   * and {@code matviewPids} in Matview's.
   */
  LoadRounds(BenchContext context, String title, List<Long> baselinePids, List<Long> matviewPids) {
    this.context = context;
    this.title = title;
    this.rounds = context.flags().integer("rounds", 3);
    this.baseline = new Side("baseline", baselinePids);
    this.matview = new Side("matview", matviewPids);
  }

  /**
   * Runs the rounds at saturation, or at {@code rate} requests a second when it is positive,
   * alternating which side goes first so that a machine that speeds up or slows down over the
   * rounds favours neither. Saturated rounds come after unrecorded warm-up rounds of each side: at
   * least {@code --warmup-rounds}, then more until each side's rate changed by at most {@code
   * --warmup-tolerance} from its previous warm-up round, {@code --max-warmup-rounds} at most.
   */
  LoadRounds run(
      LoadDriverProcess baselineLoad,
      int baselinePort,
      LoadDriverProcess matviewLoad,
      int matviewPort,
      double rate) {
    if (rate <= 0) {
      warmUp(baselineLoad, baselinePort, matviewLoad, matviewPort);
    }
    for (int round = 1; round <= this.rounds; round++) {
      if (round % 2 == 1) {
        round(baselineLoad, baselinePort, rate, this.baseline, this.matview, round);
      }
      round(matviewLoad, matviewPort, rate, this.matview, this.baseline, round);
      if (round % 2 == 0) {
        round(baselineLoad, baselinePort, rate, this.baseline, this.matview, round);
      }
    }
    return this;
  }

  private void warmUp(
      LoadDriverProcess baselineLoad,
      int baselinePort,
      LoadDriverProcess matviewLoad,
      int matviewPort) {
    int least = this.context.flags().integer("warmup-rounds", 1);
    int most = Math.max(least, this.context.flags().integer("max-warmup-rounds", 6));
    double tolerance = this.context.flags().decimal("warmup-tolerance", 0.10);
    if (least <= 0) {
      return;
    }
    List<Double> baselineRates = new ArrayList<>();
    List<Double> matviewRates = new ArrayList<>();
    for (int round = 1; round <= most; round++) {
      baselineRates.add(baselineLoad.saturate(baselinePort).throughput());
      matviewRates.add(matviewLoad.saturate(matviewPort).throughput());
      this.context.log(
          this.title
              + ": warm-up round "
              + round
              + ": baseline "
              + Stats.format(baselineRates.get(round - 1), "req/s")
              + ", matview "
              + Stats.format(matviewRates.get(round - 1), "req/s"));
      if (round >= least
          && Stats.settled(baselineRates, tolerance)
          && Stats.settled(matviewRates, tolerance)) {
        return;
      }
    }
    this.context.note(
        this.title,
        "the rates still changed by more than "
            + Math.round(tolerance * 100)
            + " % between the last two of "
            + most
            + " warm-up rounds");
  }

  /** The median over the baseline's rounds of the apps' CPU time per request, in microseconds. */
  double baselineCpuMicros() {
    return Stats.median(this.baseline.cpu);
  }

  /** The median over Matview's rounds of the apps' CPU time per request, in microseconds. */
  double matviewCpuMicros() {
    return Stats.median(this.matview.cpu);
  }

  /**
   * The median over the baseline's rounds of the CPU time per request of its app process number
   * {@code index}, in microseconds.
   */
  double baselineCpuMicrosOf(int index) {
    return Stats.median(this.baseline.cpuOf(index));
  }

  /**
   * The median over Matview's rounds of the CPU time per request of its app process number {@code
   * index}, in microseconds.
   */
  double matviewCpuMicrosOf(int index) {
    return Stats.median(this.matview.cpuOf(index));
  }

  /** The median over the baseline's rounds of {@code figure}. */
  double baseline(ToDoubleFunction<LoadResult> figure) {
    return Stats.median(this.baseline.results.stream().map(figure::applyAsDouble).toList());
  }

  /** The median over Matview's rounds of {@code figure}. */
  double matview(ToDoubleFunction<LoadResult> figure) {
    return Stats.median(this.matview.results.stream().map(figure::applyAsDouble).toList());
  }

  /**
   * One recorded round of {@code side}, its figures added to the side's; the {@code other} side's
   * app CPU meanwhile is logged when it runs in other processes.
   */
  private void round(
      LoadDriverProcess load, int port, double rate, Side side, Side other, int round) {
    boolean otherApp = !other.pids.equals(side.pids);
    long cpuBefore = ProcessCpu.total(side.pids);
    long[] eachBefore = ProcessCpu.each(side.pids);
    long otherBefore = otherApp ? ProcessCpu.total(other.pids) : -1;
    LoadResult result = rate > 0 ? load.atRate(port, rate) : load.saturate(port);
    long cpuAfter = ProcessCpu.total(side.pids);
    long[] eachAfter = ProcessCpu.each(side.pids);
    long otherAfter = otherApp ? ProcessCpu.total(other.pids) : -1;
    double cpuMicros = perRequestMicros(cpuBefore, cpuAfter, result);
    side.results.add(result);
    side.cpu.add(cpuMicros);
    double[] eachMicros = new double[eachBefore.length];
    for (int i = 0; i < eachMicros.length; i++) {
      eachMicros[i] = perRequestMicros(eachBefore[i], eachAfter[i], result);
    }
    side.cpuEach.add(eachMicros);
    String line =
        side.name
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
            + " a request"
            + ((otherBefore >= 0 && otherAfter >= 0)
                ? ", the other app's CPU meanwhile "
                    + Stats.format((otherAfter - otherBefore) / 1_000_000.0, "ms")
                : "");
    if (result.errors() > 0 || result.requests() == 0) {
      this.context.note(this.title, line);
    } else {
      this.context.log(this.title + ": " + line);
    }
  }

  /**
   * The CPU time per request of {@code result}'s round, in microseconds, from the CPU time read
   * before and after it (-1 where unknown), or NaN.
   */
  private static double perRequestMicros(long before, long after, LoadResult result) {
    return (before >= 0 && after >= 0 && result.requests() > 0)
        ? (after - before) / 1000.0 / result.requests()
        : Double.NaN;
  }

  /** One side of the rounds: its name, the processes of its app, and its figures so far. */
  private static final class Side {

    private final String name;

    private final List<Long> pids;

    private final List<LoadResult> results = new ArrayList<>();

    private final List<Double> cpu = new ArrayList<>();

    private final List<double[]> cpuEach = new ArrayList<>();

    private Side(String name, List<Long> pids) {
      this.name = name;
      this.pids = pids;
    }

    /** The CPU time per request of its app process number {@code index}, round by round. */
    private List<Double> cpuOf(int index) {
      return this.cpuEach.stream().map((each) -> each[index]).toList();
    }
  }
}
