package dev.matview.benchmarks.memory;

import dev.matview.benchmarks.BenchContext;
import dev.matview.benchmarks.Flags;
import java.time.Duration;
import java.util.ArrayList;
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
 * @param largePartitions partitions of the large key space's load, 0 to leave it out
 * @param largeOrders orders of the large key space's load
 * @param largeCustomers customers of the large key space's load
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
    boolean warmUp,
    int largePartitions,
    long largeOrders,
    long largeCustomers) {

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
        flags.bool("memory-warmup", true),
        flags.integer("memory-large-partitions", 256),
        flags.integer("memory-large-orders", 1_000_000),
        flags.integer("memory-large-customers", 250_000));
  }

  /**
   * The loads to run, each with and without the bound: the orders over each partition count, then
   * the large key space unless its partitions are 0.
   */
  List<MemoryLoad> loads() {
    List<MemoryLoad> loads = new ArrayList<>();
    for (int count : this.partitions) {
      loads.add(new MemoryLoad(count, this.orders, this.customers, false));
    }
    if (this.largePartitions > 0) {
      loads.add(new MemoryLoad(this.largePartitions, this.largeOrders, this.largeCustomers, true));
    }
    return loads;
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
