package dev.matview.query.routing;

/** Whether replicas other than a running active may answer by default, and how far behind. */
public record StaleReads(boolean enabled, long maxLag) {

  /** Stale reads off, as by default. */
  public static StaleReads disabled() {
    return new StaleReads(false, 10_000);
  }

  /** The policy for one request: its own options where it has them, else these defaults. */
  public StaleReads forCaller(CallerContext caller) {
    Boolean allowStale = caller.allowStale();
    Long maxLag = caller.maxLag();
    return new StaleReads(
        allowStale != null ? allowStale : this.enabled, maxLag != null ? maxLag : this.maxLag);
  }
}
