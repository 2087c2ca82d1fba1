package dev.matview.health;

import dev.matview.disk.StateDirSpace;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Judges whether the state dir's file system has less free space than the bound, so operators hear
 * of it before RocksDB cannot write; asking costs one file-system call.
 */
public final class DiskPressure {

  /** The property that sets the bound, named in the reason. */
  static final String PROPERTY = "matview.health.min-free-disk";

  private final StateDirSpace space;

  private final long minFreeBytes;

  /** Judges {@code space} against {@code minFreeBytes}; 0 never reports pressure. */
  public DiskPressure(StateDirSpace space, long minFreeBytes) {
    if (minFreeBytes < 0) {
      throw new IllegalArgumentException("minFreeBytes must be at least 0: " + minFreeBytes);
    }
    this.space = space;
    this.minFreeBytes = minFreeBytes;
  }

  /** The fewest free bytes the state dir's file system should have. */
  public long minFreeBytes() {
    return this.minFreeBytes;
  }

  /** Reads the free space now and judges it. */
  public Report report() {
    long free = this.space.usableBytes();
    String stateDir = this.space.stateDir().toString();
    if (free >= this.minFreeBytes) {
      return new Report(stateDir, free, this.minFreeBytes, null);
    }
    String reason =
        ("Only %s free on the disk of the state dir %s, less than %s=%s: RocksDB cannot write when"
                + " it is full, and Kafka Streams then fails. Free space on that disk, give it"
                + " more, or move spring.kafka.streams.state-dir to a larger one")
            .formatted(readable(free), stateDir, PROPERTY, readable(this.minFreeBytes));
    return new Report(stateDir, free, this.minFreeBytes, reason);
  }

  /** {@code bytes} in the largest unit of which there is at least one, such as 512MB. */
  static String readable(long bytes) {
    String[] units = {"B", "KB", "MB", "GB", "TB"};
    int unit = 0;
    double value = bytes;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return (unit == 0 || value >= 100 || value == Math.rint(value))
        ? Math.round(value) + units[unit]
        : String.format(Locale.ROOT, "%.1f%s", value, units[unit]);
  }

  /** The judgement ({@code reason} null when there is room enough) and what it was made from. */
  public record Report(
      String stateDir, long freeBytes, long minFreeBytes, @Nullable String reason) {

    /** Whether the free space has fallen under the bound. */
    public boolean low() {
      return this.reason != null;
    }
  }
}
