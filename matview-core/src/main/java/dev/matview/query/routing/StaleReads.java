package dev.matview.query.routing;

/**
 * Whether replicas other than a running active may answer, and how far behind they may be.
 *
 * @param enabled whether standbys and restoring replicas may answer by default
 * @param maxLag most changelog offsets such a replica may lag by default
 */
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
