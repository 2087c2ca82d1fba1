package dev.matview.benchmarks;

import java.util.Map;
import java.util.Set;

/** The loaded instances that several benchmarks of a run share, so each is loaded once. */
public final class Clusters {

  /** The table view that key lookups, forwarding and restores read. */
  public static final String TABLE_VIEW = "orders-per-customer";

  /** The windowed view that window scans read. */
  public static final String WINDOW_VIEW = "orders-per-customer-per-minute";

  /** The view that keeps each order by its record key, without re-keying (row 10). */
  public static final String ORDER_VIEW = "order-by-id";

  private Clusters() {}

  /** One instance holding {@code --keys} keys, one order each (rows 1, 6 and 10). */
  public static ClusterSpec oneInstance(Flags flags) {
    long keys = flags.integer("keys", 1_000_000);
    return new ClusterSpec("one", 1, keys, keys, Set.of(TABLE_VIEW), Map.of());
  }

  /**
   * Two instances sharing {@code --keys} keys of a table and a windowed view, each partition with a
   * standby on the other instance (rows 3 and 4, then row 8, which kills one).
   */
  public static ClusterSpec twoInstances(Flags flags) {
    long keys = flags.integer("keys", 1_000_000);
    return new ClusterSpec(
        "two",
        2,
        keys,
        keys,
        Set.of(TABLE_VIEW, WINDOW_VIEW),
        Map.of(
            "matview.standby-replicas",
            "1",
            "management.endpoints.web.exposure.include",
            "health,metrics"));
  }
}
