package dev.matview.health;

import java.time.Duration;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * How far one local store partition is behind its changelog, as of its last restored or loaded
 * batch: {@code currentOffset} is the next offset to apply, {@code endOffset} one past the last
 * known ({@link #UNKNOWN} until a standby has loaded a batch or been reported), {@code lag} their
 * difference (0 once an active partition has restored), {@code eta} null while no progress has been
 * seen.
 */
public record PartitionLag(
    String store,
    int partition,
    Role role,
    long startOffset,
    long currentOffset,
    long endOffset,
    long lag,
    long records,
    double recordsPerSecond,
    @Nullable Duration eta) {

  /** Whether this instance holds the partition as its active or as a standby replica. */
  public enum Role {
    /** The replica that processes the partition's records, restoring it first if need be. */
    ACTIVE,
    /** A warm copy kept up to date from the changelog. */
    STANDBY;

    /** The lower-case name used in health details and metrics. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The end offset and lag of a partition whose changelog end is not known yet. */
  public static final long UNKNOWN = -1;

  /** Whether the changelog's end, and so the lag, is known. */
  public boolean lagKnown() {
    return this.lag != UNKNOWN;
  }

  /** The estimated seconds until caught up, rounded up, or {@code null} while unknown. */
  public @Nullable Long etaSeconds() {
    return (this.eta != null) ? (this.eta.toMillis() + 999) / 1000 : null;
  }

  /** Whether this is the active replica of its partition. */
  public boolean isActive() {
    return this.role == Role.ACTIVE;
  }
}
