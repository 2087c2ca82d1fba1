package dev.matview.benchmarks.memory;

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
