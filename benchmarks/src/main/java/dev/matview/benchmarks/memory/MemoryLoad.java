package dev.matview.benchmarks.memory;

import java.time.Duration;
import java.util.Locale;

/**
 * What one instance of row 7 catches up on: {@code orders} published orders over {@code customers}
 * customers, on a topic of {@code partitions} partitions.
 *
 * @param partitions the source topic's partitions
 * @param orders orders published before the instance starts
 * @param customers distinct customers of those orders, the views' keys
 * @param large whether this is the row's large key space, which its figures name
 */
record MemoryLoad(int partitions, long orders, long customers, boolean large) {

  /** How long catching up may take before the run fails. */
  Duration catchUpBound() {
    return Duration.ofMinutes(5).plusSeconds(this.orders / 500);
  }

  /** The load as the figures name it: its partitions, and its sizes when it is the large one. */
  String label() {
    String at = this.partitions + " partitions";
    return this.large
        ? at
            + String.format(
                Locale.ROOT, ", %,d orders over %,d customers", this.orders, this.customers)
        : at;
  }

  /** The load as a run's name, topic and group name it. */
  String name() {
    return (this.large ? "large-" : "") + this.partitions;
  }
}
