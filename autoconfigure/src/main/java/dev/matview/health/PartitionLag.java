package dev.matview.health;

import java.time.Duration;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * How far one local store partition is behind its changelog, as of its last restored or loaded
 * batch. Offsets are positions: {@code currentOffset} is the next changelog offset to apply and
 * {@code endOffset} is one past the last offset known to be in the changelog.
 *
 * @param store the store's name, which is the view's name for Matview's views
 * @param partition the store partition, which is its changelog partition
 * @param role whether this instance holds the partition as its active or as a standby replica
 * @param startOffset the position the restore or standby update started from
 * @param currentOffset the next changelog offset to apply
 * @param endOffset one past the last changelog offset known to Kafka Streams, or {@link #UNKNOWN}
 *     while a standby has neither loaded a batch nor been in a lag report of Kafka Streams
 * @param lag changelog offsets still to apply: {@code endOffset - currentOffset}, 0 once an active
 *     partition has finished restoring, or {@link #UNKNOWN} while the end is unknown
 * @param records records applied since the restore or standby update started
 * @param recordsPerSecond records applied per second, recently
 * @param eta estimated time until caught up, or {@code null} while no progress has been seen
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

  /** Whether this is the active replica of its partition. */
  public boolean isActive() {
    return this.role == Role.ACTIVE;
  }
}
