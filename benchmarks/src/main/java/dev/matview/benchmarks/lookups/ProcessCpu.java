package dev.matview.benchmarks.lookups;

import java.time.Duration;
import java.util.List;

/** The CPU time other processes of this machine have used so far, as the JVM can read it. */
final class ProcessCpu {

  private ProcessCpu() {}

  /** The CPU time the processes {@code pids} have used, in nanoseconds, or -1 where unknown. */
  static long total(List<Long> pids) {
    long total = 0;
    for (long pid : pids) {
      long used = of(pid);
      if (used < 0) {
        return -1;
      }
      total += used;
    }
    return total;
  }

  /**
   * The CPU time each of the processes {@code pids} has used, in nanoseconds, or -1 where unknown.
   */
  static long[] each(List<Long> pids) {
    return pids.stream().mapToLong(ProcessCpu::of).toArray();
  }

  /** The CPU time the process {@code pid} has used, in nanoseconds, or -1 where unknown. */
  private static long of(long pid) {
    return ProcessHandle.of(pid)
        .flatMap((handle) -> handle.info().totalCpuDuration())
        .map(Duration::toNanos)
        .orElse(-1L);
  }
}
