package dev.matview.rocksdb;

import java.math.BigDecimal;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Bounds on the off-heap memory shared by all RocksDB stores of a process, carried to each store
 * through the Kafka Streams config map.
 *
 * <p>With {@code strictLimit} the block cache fails reads and iterations (surfacing as a {@code
 * ProcessorStateException}) rather than grow past {@code totalBytes}; without it the cache may
 * briefly exceed the bound while blocks are pinned.
 *
 * <p>When the ratio is Matview's default rather than the user's, the stores the instance may open
 * ({@code plannedStores}, from the start-up checks) can raise the memtables' share: to {@link
 * #PLANNED_STORE_WRITE_BUFFER_BYTES} per store, at most {@link #MAX_PLANNED_WRITE_BUFFER_RATIO} of
 * the total. Under a fixed share RocksDB flushes the memtable of whichever store is written once
 * all memtables together near it, so hundreds of stores flush memtables of a few dozen kilobytes.
 *
 * @param totalBytes bytes shared by block cache, index and filter blocks, and memtables
 * @param writeBufferRatio share of {@code totalBytes} that memtables may use, in (0, 1]
 * @param strictLimit whether the block cache refuses to grow past {@code totalBytes}
 * @param plannedStores stores the instance may open, which may raise the share; 0 keeps it as is
 */
public record RocksDBMemoryLimits(
    long totalBytes, double writeBufferRatio, boolean strictLimit, long plannedStores) {

  /** Config key for {@link #totalBytes()}, a whole number of bytes given as a number or string. */
  public static final String TOTAL_MEMORY_CONFIG = "matview.rocksdb.total-memory";

  /** Config key for {@link #writeBufferRatio()}, given as a number or string. */
  public static final String WRITE_BUFFER_RATIO_CONFIG = "matview.rocksdb.write-buffer-ratio";

  /** Config key for {@link #strictLimit()}, given as a boolean or string. */
  public static final String STRICT_LIMIT_CONFIG = "matview.rocksdb.strict-limit";

  /** Total bytes used when {@link #TOTAL_MEMORY_CONFIG} is absent: 256 MiB. */
  public static final long DEFAULT_TOTAL_BYTES = 256L * 1024 * 1024;

  /** Write buffer ratio used when {@link #WRITE_BUFFER_RATIO_CONFIG} is absent. */
  public static final double DEFAULT_WRITE_BUFFER_RATIO = 0.25;

  /** Strict limit used when {@link #STRICT_LIMIT_CONFIG} is absent. */
  public static final boolean DEFAULT_STRICT_LIMIT = false;

  /**
   * Config key for {@link #plannedStores()}, which Matview's start-up checks set when {@link
   * #WRITE_BUFFER_RATIO_CONFIG} is absent; read only then.
   */
  public static final String PLANNED_STORES_CONFIG = "matview.rocksdb.planned-stores";

  /** Memtable memory the share grows to give each planned store: 256 KiB. */
  public static final long PLANNED_STORE_WRITE_BUFFER_BYTES = 256 * 1024;

  /** The largest share of the total that planned stores can give memtables. */
  public static final double MAX_PLANNED_WRITE_BUFFER_RATIO = 0.5;

  private static final long ARENA_BLOCK_BYTES = 8 * 1024;

  /** The block RocksDB's arena holds inline in every memtable before it allocates any other. */
  private static final long INLINE_ARENA_BYTES = 2 * 1024;

  private static final String TOTAL_MEMORY_RANGE =
      "a whole number of bytes from 1 to " + Long.MAX_VALUE;

  private static final String WRITE_BUFFER_RATIO_RANGE = "a number in the range (0, 1]";

  private static final String STRICT_LIMIT_RANGE = "true or false";

  private static final String PLANNED_STORES_RANGE = "a whole number of stores, 0 or more";

  /** Validates the limits, naming the config key of any value out of range. */
  public RocksDBMemoryLimits {
    if (totalBytes <= 0) {
      throw invalid(TOTAL_MEMORY_CONFIG, totalBytes, TOTAL_MEMORY_RANGE);
    }
    if (!(writeBufferRatio > 0 && writeBufferRatio <= 1)) {
      throw invalid(WRITE_BUFFER_RATIO_CONFIG, writeBufferRatio, WRITE_BUFFER_RATIO_RANGE);
    }
    if (plannedStores < 0) {
      throw invalid(PLANNED_STORES_CONFIG, plannedStores, PLANNED_STORES_RANGE);
    }
  }

  /** Limits whose memtable share is exactly {@code writeBufferRatio}, whatever the stores. */
  public RocksDBMemoryLimits(long totalBytes, double writeBufferRatio, boolean strictLimit) {
    this(totalBytes, writeBufferRatio, strictLimit, 0);
  }

  /** Returns the limits used when no {@code matview.rocksdb.*} key is configured. */
  public static RocksDBMemoryLimits defaults() {
    return new RocksDBMemoryLimits(
        DEFAULT_TOTAL_BYTES, DEFAULT_WRITE_BUFFER_RATIO, DEFAULT_STRICT_LIMIT);
  }

  /**
   * Reads the limits from a Kafka Streams config map, using the defaults for absent keys; throws
   * {@link IllegalArgumentException} naming the key and its allowed range if a value is invalid.
   */
  public static RocksDBMemoryLimits fromConfigs(Map<String, ?> configs) {
    Object ratio = configs.get(WRITE_BUFFER_RATIO_CONFIG);
    return new RocksDBMemoryLimits(
        totalBytes(configs.get(TOTAL_MEMORY_CONFIG)),
        writeBufferRatio(ratio),
        strictLimit(configs.get(STRICT_LIMIT_CONFIG)),
        (ratio == null) ? plannedStores(configs.get(PLANNED_STORES_CONFIG)) : 0);
  }

  /** These limits with the share grown for {@code stores} planned stores, as far as it may grow. */
  public RocksDBMemoryLimits withPlannedStores(long stores) {
    return new RocksDBMemoryLimits(
        this.totalBytes, this.writeBufferRatio, this.strictLimit, stores);
  }

  /**
   * Returns the smallest total, in whole MiB and at least this one, whose memtable share holds the
   * floors of {@code stores} open stores, keeping the write buffer ratio.
   */
  public long totalBytesFor(long stores) {
    long mib = 1024 * 1024;
    double needed = stores * (double) memtableFloorBytes() * 8 / 7 / this.writeBufferRatio;
    long total = Math.max(this.totalBytes, (long) Math.ceil(needed));
    total = (total + mib - 1) / mib * mib;
    while (withTotal(total).maxOpenStores() < stores) {
      total += mib;
    }
    return total;
  }

  private RocksDBMemoryLimits withTotal(long total) {
    return new RocksDBMemoryLimits(total, this.writeBufferRatio, this.strictLimit);
  }

  /** Returns these limits as entries to add to a Kafka Streams config map. */
  public Map<String, Object> toConfigs() {
    return Map.of(
        TOTAL_MEMORY_CONFIG, totalBytes,
        WRITE_BUFFER_RATIO_CONFIG, writeBufferRatio,
        STRICT_LIMIT_CONFIG, strictLimit);
  }

  /**
   * Returns the bytes memtables may use before being flushed, never less than one: the ratio's
   * share, or more when the planned stores need it, up to {@link #MAX_PLANNED_WRITE_BUFFER_RATIO}.
   */
  public long writeBufferBytes() {
    long share = Math.max(1, (long) (this.totalBytes * this.writeBufferRatio));
    if (this.plannedStores == 0) {
      return share;
    }
    long planned =
        (this.plannedStores > Long.MAX_VALUE / PLANNED_STORE_WRITE_BUFFER_BYTES)
            ? Long.MAX_VALUE
            : this.plannedStores * PLANNED_STORE_WRITE_BUFFER_BYTES;
    long ceiling = (long) (this.totalBytes * MAX_PLANNED_WRITE_BUFFER_RATIO);
    return Math.max(share, Math.min(planned, ceiling));
  }

  /**
   * Returns the size of the blocks a memtable allocates: 8 KiB.
   *
   * <p>A memtable holding any record holds at least one block, so with RocksDB's default (an eighth
   * of Kafka Streams' 16 MiB write buffer) 768 stores hold 1.5 GiB before any of them is full; with
   * small blocks a memtable costs about what it holds, and thousands of stores fit.
   */
  public long arenaBlockBytes() {
    return ARENA_BLOCK_BYTES;
  }

  /**
   * Returns the memtable memory an open store holds however little it was written: one block of its
   * written memtable and the first block RocksDB allocates for each of its two column families
   * (Kafka Streams' timestamped stores keep a second one).
   */
  public long memtableFloorBytes() {
    return arenaBlockBytes() + 2 * INLINE_ARENA_BYTES;
  }

  /**
   * Returns how many stores can stay open before their memtables' floors alone fill the share of
   * the write buffer at which RocksDB flushes (seven eighths).
   */
  public long maxOpenStores() {
    return (writeBufferBytes() * 7 / 8) / memtableFloorBytes();
  }

  private static long totalBytes(@Nullable Object value) {
    return (value == null)
        ? DEFAULT_TOTAL_BYTES
        : wholeNumber(value, TOTAL_MEMORY_CONFIG, TOTAL_MEMORY_RANGE);
  }

  private static double writeBufferRatio(@Nullable Object value) {
    if (value == null) {
      return DEFAULT_WRITE_BUFFER_RATIO;
    }
    if (value instanceof Number number) {
      return number.doubleValue();
    }
    if (value instanceof String string) {
      try {
        return Double.parseDouble(string.trim());
      } catch (NumberFormatException ex) {
        throw invalid(WRITE_BUFFER_RATIO_CONFIG, value, WRITE_BUFFER_RATIO_RANGE);
      }
    }
    throw invalid(WRITE_BUFFER_RATIO_CONFIG, value, WRITE_BUFFER_RATIO_RANGE);
  }

  private static boolean strictLimit(@Nullable Object value) {
    if (value == null) {
      return DEFAULT_STRICT_LIMIT;
    }
    if (value instanceof Boolean bool) {
      return bool;
    }
    if (value instanceof String string) {
      String trimmed = string.trim();
      if (trimmed.equalsIgnoreCase("true") || trimmed.equalsIgnoreCase("false")) {
        return Boolean.parseBoolean(trimmed);
      }
    }
    throw invalid(STRICT_LIMIT_CONFIG, value, STRICT_LIMIT_RANGE);
  }

  private static long plannedStores(@Nullable Object value) {
    return (value == null) ? 0 : wholeNumber(value, PLANNED_STORES_CONFIG, PLANNED_STORES_RANGE);
  }

  /**
   * {@code value} as a whole number, given as a number or a string, or refused naming {@code key}.
   */
  private static long wholeNumber(Object value, String key, String range) {
    if (value instanceof Number || value instanceof String) {
      try {
        return new BigDecimal(value.toString().trim()).longValueExact();
      } catch (ArithmeticException | NumberFormatException ex) {
        throw invalid(key, value, range);
      }
    }
    throw invalid(key, value, range);
  }

  private static IllegalArgumentException invalid(String key, Object value, String range) {
    return new IllegalArgumentException(
        "Invalid value '" + value + "' for " + key + ": must be " + range);
  }
}
