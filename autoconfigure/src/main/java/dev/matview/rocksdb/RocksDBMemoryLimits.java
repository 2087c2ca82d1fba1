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
 * @param totalBytes bytes shared by block cache, index and filter blocks, and memtables
 * @param writeBufferRatio share of {@code totalBytes} that memtables may use, in (0, 1]
 * @param strictLimit whether the block cache refuses to grow past {@code totalBytes}
 */
public record RocksDBMemoryLimits(long totalBytes, double writeBufferRatio, boolean strictLimit) {

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

  private static final String TOTAL_MEMORY_RANGE =
      "a whole number of bytes from 1 to " + Long.MAX_VALUE;

  private static final String WRITE_BUFFER_RATIO_RANGE = "a number in the range (0, 1]";

  private static final String STRICT_LIMIT_RANGE = "true or false";

  /** Validates the limits, naming the config key of any value out of range. */
  public RocksDBMemoryLimits {
    if (totalBytes <= 0) {
      throw invalid(TOTAL_MEMORY_CONFIG, totalBytes, TOTAL_MEMORY_RANGE);
    }
    if (!(writeBufferRatio > 0 && writeBufferRatio <= 1)) {
      throw invalid(WRITE_BUFFER_RATIO_CONFIG, writeBufferRatio, WRITE_BUFFER_RATIO_RANGE);
    }
  }

  /** Returns the limits used when no {@code matview.rocksdb.*} key is configured. */
  public static RocksDBMemoryLimits defaults() {
    return new RocksDBMemoryLimits(
        DEFAULT_TOTAL_BYTES, DEFAULT_WRITE_BUFFER_RATIO, DEFAULT_STRICT_LIMIT);
  }

  /**
   * Reads the limits from a Kafka Streams config map, using the defaults for absent keys.
   *
   * @throws IllegalArgumentException naming the key and its allowed range if a value is invalid
   */
  public static RocksDBMemoryLimits fromConfigs(Map<String, ?> configs) {
    return new RocksDBMemoryLimits(
        totalBytes(configs.get(TOTAL_MEMORY_CONFIG)),
        writeBufferRatio(configs.get(WRITE_BUFFER_RATIO_CONFIG)),
        strictLimit(configs.get(STRICT_LIMIT_CONFIG)));
  }

  /** Returns these limits as entries to add to a Kafka Streams config map. */
  public Map<String, Object> toConfigs() {
    return Map.of(
        TOTAL_MEMORY_CONFIG, totalBytes,
        WRITE_BUFFER_RATIO_CONFIG, writeBufferRatio,
        STRICT_LIMIT_CONFIG, strictLimit);
  }

  /** Returns the bytes memtables may use before being flushed, never less than one. */
  public long writeBufferBytes() {
    return Math.max(1, (long) (totalBytes * writeBufferRatio));
  }

  private static long totalBytes(@Nullable Object value) {
    if (value == null) {
      return DEFAULT_TOTAL_BYTES;
    }
    if (value instanceof Number || value instanceof String) {
      try {
        return new BigDecimal(value.toString().trim()).longValueExact();
      } catch (ArithmeticException | NumberFormatException ex) {
        throw invalid(TOTAL_MEMORY_CONFIG, value, TOTAL_MEMORY_RANGE);
      }
    }
    throw invalid(TOTAL_MEMORY_CONFIG, value, TOTAL_MEMORY_RANGE);
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

  private static IllegalArgumentException invalid(String key, Object value, String range) {
    return new IllegalArgumentException(
        "Invalid value '" + value + "' for " + key + ": must be " + range);
  }
}
