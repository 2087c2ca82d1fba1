package dev.matview.benchmarks.memory;

import dev.matview.benchmarks.BenchContext;
import dev.matview.benchmarks.Flags;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The sizes of row 7, from its flags.
 *
 * @param partitions the partition counts to run, each with and without the bound
 * @param orders orders published before the instance starts
 * @param customers distinct customers of those orders
 * @param steady how long the trickle runs once the orders are processed
 * @param trickleRate orders per second of the trickle
 * @param boundMegabytes {@code matview.rocksdb.total-memory}, in MiB
 * @param jvmOptions the instance's JVM options, {@code -Xmx1g} by default: at 512 partitions
 *     Kafka's metrics of 1,536 tasks and their input buffers do not fit a 512 MB heap
 * @param heapMegabytes the instance's {@code -Xmx}, in MiB
 * @param rounds runs of each kind per partition count, in alternating order
 * @param warmUp whether a run that is not counted comes first
 */
record MemorySettings(
    List<Integer> partitions,
    long orders,
    long customers,
    Duration steady,
    int trickleRate,
    long boundMegabytes,
    List<String> jvmOptions,
    long heapMegabytes,
    int rounds,
    boolean warmUp) {

  /** The settings that {@code context}'s flags give. */
  static MemorySettings of(BenchContext context) {
    Flags flags = context.flags();
    List<String> jvmOptions =
        List.of(flags.text("memory-jvm-options", "-Xmx1g").trim().split("\\s+"));
    return new MemorySettings(
        flags.list("memory-partitions", List.of("64", "256", "512")).stream()
            .map(Integer::parseInt)
            .toList(),
        flags.integer("memory-orders", 300_000),
        flags.integer("memory-customers", 100_000),
        Duration.ofSeconds(flags.integer("memory-steady-seconds", 30)),
        flags.integer("memory-trickle-rate", 50),
        flags.integer("memory-bound-mb", 256),
        jvmOptions,
        heapMegabytes(jvmOptions),
        Math.max(1, flags.integer("memory-rounds", 2)),
        flags.bool("memory-warmup", true));
  }

  /** How long catching up may take before the run fails. */
  Duration catchUpBound() {
    return Duration.ofMinutes(5).plusSeconds(this.orders / 500);
  }

  /** The most a bounded instance's RSS should reach: heap, bound and 256 MiB. */
  long rssGoalMegabytes() {
    return this.heapMegabytes + this.boundMegabytes + 256;
  }

  /** The {@code -Xmx} among {@code jvmOptions}, in MiB. */
  static long heapMegabytes(List<String> jvmOptions) {
    for (String option : jvmOptions) {
      if (option.startsWith("-Xmx")) {
        String size = option.substring(4).toLowerCase(Locale.ROOT);
        long number = Long.parseLong(size.replaceAll("[kmg]$", ""));
        return switch (size.charAt(size.length() - 1)) {
          case 'g' -> number * 1024;
          case 'm' -> number;
          case 'k' -> number / 1024;
          default -> number / (1024 * 1024);
        };
      }
    }
    throw new IllegalArgumentException(
        "Row 7 needs the instances' -Xmx in --memory-jvm-options, got " + jvmOptions);
  }
}
