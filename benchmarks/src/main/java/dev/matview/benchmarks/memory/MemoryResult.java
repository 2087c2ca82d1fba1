package dev.matview.benchmarks.memory;

import java.util.List;

/**
 * What one instance used while it aggregated the orders and then followed a trickle.
 *
 * @param partitions the source topic's partitions
 * @param bounded whether Matview's memory bound was on
 * @param catchUpSeconds from the JVM's start until every order was processed and committed
 * @param peakRssBytes the largest RSS seen
 * @param steadyMinRssBytes the smallest RSS seen while the trickle ran
 * @param steadyMaxRssBytes the largest RSS seen while the trickle ran
 * @param maxCacheBytes the most RocksDB's shared cache held, memtables included (NaN unbounded)
 * @param maxOpenStores the most RocksDB stores open at once (NaN unbounded)
 * @param jvmCommittedBytes what the JVM committed for itself at the end, by native memory tracking
 * @param jvmLargest the JVM's largest categories of committed memory, in words
 * @param diskBytes the disk blocks of the state dir at the end
 */
record MemoryResult(
    int partitions,
    boolean bounded,
    double catchUpSeconds,
    long peakRssBytes,
    long steadyMinRssBytes,
    long steadyMaxRssBytes,
    double maxCacheBytes,
    double maxOpenStores,
    long jvmCommittedBytes,
    String jvmLargest,
    long diskBytes) {

  /**
   * Several runs of one kind as one: the mean catch-up, and the most of every other figure (RSS
   * spread from the run whose RSS moved most).
   */
  static MemoryResult of(List<MemoryResult> runs) {
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("No run to summarize");
    }
    MemoryResult widest = runs.get(0);
    MemoryResult mostCommitted = runs.get(0);
    for (MemoryResult run : runs) {
      widest = run.steadySpreadBytes() > widest.steadySpreadBytes() ? run : widest;
      mostCommitted = run.jvmCommittedBytes > mostCommitted.jvmCommittedBytes ? run : mostCommitted;
    }
    return new MemoryResult(
        widest.partitions,
        widest.bounded,
        runs.stream().mapToDouble(MemoryResult::catchUpSeconds).average().orElseThrow(),
        runs.stream().mapToLong(MemoryResult::peakRssBytes).max().orElseThrow(),
        widest.steadyMinRssBytes,
        widest.steadyMaxRssBytes,
        runs.stream().mapToDouble(MemoryResult::maxCacheBytes).max().orElseThrow(),
        runs.stream().mapToDouble(MemoryResult::maxOpenStores).max().orElseThrow(),
        mostCommitted.jvmCommittedBytes,
        mostCommitted.jvmLargest,
        runs.stream().mapToLong(MemoryResult::diskBytes).max().orElseThrow());
  }

  /** How far RSS moved while the trickle ran. */
  long steadySpreadBytes() {
    return this.steadyMaxRssBytes - this.steadyMinRssBytes;
  }

  /** What RSS held at its peak beyond the JVM's own committed memory: RocksDB and other natives. */
  long beyondJvmBytes() {
    return this.peakRssBytes - this.jvmCommittedBytes;
  }

  /** What each open store cost beyond the JVM and RocksDB's most cached bytes, or NaN unbounded. */
  double perStoreOverheadBytes() {
    return (beyondJvmBytes() - this.maxCacheBytes) / this.maxOpenStores;
  }
}
