package dev.matview.benchmarks;

import java.util.Collection;
import java.util.Map;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.profile.JavaFlightRecorderProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * What the JMH benchmarks share: their options from the flags ({@code --jmh-forks}, {@code
 * --jmh-warmups}, {@code --jmh-iterations}, {@code --jmh-millis}, {@code --jmh-jfr}), with {@code
 * -prof gc}, and how their results are read.
 */
public final class Jmh {

  private Jmh() {}

  /** The forks {@code --jmh-forks} asks for; 0 runs the benchmarks in this JVM. */
  public static int forks(Flags flags) {
    return flags.integer("jmh-forks", 1);
  }

  /**
   * Options that run the benchmarks of {@code benchmarkClass} on one thread with the allocation
   * profiler, sized by {@code flags}.
   */
  public static ChainedOptionsBuilder options(Flags flags, Class<?> benchmarkClass) {
    TimeValue time = TimeValue.milliseconds(flags.integer("jmh-millis", 1_000));
    ChainedOptionsBuilder options =
        new OptionsBuilder()
            .include(benchmarkClass.getName())
            .forks(forks(flags))
            .warmupIterations(flags.integer("jmh-warmups", 3))
            .warmupTime(time)
            .measurementIterations(flags.integer("jmh-iterations", 5))
            .measurementTime(time)
            .threads(1)
            .addProfiler(GCProfiler.class)
            .shouldFailOnError(true);
    String jfr = flags.text("jmh-jfr", "");
    if (!jfr.isEmpty()) {
      options.addProfiler(JavaFlightRecorderProfiler.class, "dir=" + jfr);
    }
    return options;
  }

  /** The result of the benchmark method named {@code method}. */
  public static RunResult find(Collection<RunResult> results, String method) {
    return results.stream()
        .filter(result -> result.getParams().getBenchmark().endsWith("." + method))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("JMH ran no benchmark named " + method));
  }

  /** The benchmark's score in its own unit (time per operation for average-time benchmarks). */
  public static double score(RunResult result) {
    return result.getPrimaryResult().getScore();
  }

  /** The bytes allocated per operation that {@code -prof gc} counted, or NaN without it. */
  public static double allocated(RunResult result) {
    Map<String, Result> secondary = result.getSecondaryResults();
    return secondary.entrySet().stream()
        .filter(entry -> entry.getKey().endsWith("gc.alloc.rate.norm"))
        .mapToDouble(entry -> entry.getValue().getScore())
        .findFirst()
        .orElse(Double.NaN);
  }
}
