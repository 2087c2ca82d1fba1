package dev.matview.benchmarks;

/**
 * Records a second between two observations of an application's committed progress: the first one
 * that saw any progress, and the first one that saw all of it.
 */
public final class Throughput {

  private long firstNanos = -1;

  private long firstDone;

  private long lastNanos = -1;

  private long total;

  /** Takes in that {@code done} of {@code total} records were committed at {@code nanos}. */
  public void observe(long nanos, long done, long total) {
    if (this.firstNanos < 0 && done > 0) {
      this.firstNanos = nanos;
      this.firstDone = done;
    }
    if (done >= total && total > 0 && this.lastNanos < 0) {
      this.lastNanos = nanos;
      this.total = total;
    }
  }

  /** Whether all records were seen committed. */
  public boolean complete() {
    return this.lastNanos >= 0;
  }

  /**
   * Records a second from the first observed progress to completion; when both came in one
   * observation, all records over {@code fallbackNanos}.
   */
  public double perSecond(long fallbackNanos) {
    if (this.lastNanos > this.firstNanos && this.firstNanos >= 0) {
      return (this.total - this.firstDone) / ((this.lastNanos - this.firstNanos) / 1e9);
    }
    return this.total / (fallbackNanos / 1e9);
  }
}
