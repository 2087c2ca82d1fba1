package dev.matview.disk;

import java.math.BigInteger;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.jspecify.annotations.Nullable;

/**
 * The bytes each RocksDB store takes on this instance's disk: the size of its live SST files (those
 * of RocksDB's current LSM tree) summed over the store's open partitions, active and standby, as
 * Kafka Streams' RocksDB property metric {@value #METRIC} reports it for Kafka's own stores, and as
 * Matview's own stores, which Kafka Streams does not measure, report the same RocksDB property.
 *
 * <p>Kafka Streams records that metric at the INFO level, its default and lowest, so it is always
 * there for an open RocksDB store; reading it asks RocksDB for a property it keeps up to date, so
 * no file is listed. Data still in memtables is not counted until RocksDB flushes it, which Kafka
 * Streams does at least when it checkpoints (after 10,000 changelog records of a task, or on close)
 * and RocksDB does when a memtable is full. SST files that compaction made obsolete but RocksDB has
 * not deleted yet, and the state of partitions that moved to another instance but whose directories
 * Kafka Streams has not cleaned up yet ({@code state.cleanup.delay.ms}), are not counted either;
 * the state dir's free space counts everything.
 */
public final class StoreDiskUsage {

  /** Kafka Streams' metric of the bytes of a RocksDB store's live SST files. */
  public static final String METRIC = "live-sst-files-size";

  /** The group of Kafka Streams' state store metrics. */
  static final String GROUP = "stream-state-metrics";

  /** The end of the tag that names the store, such as rocksdb-state-id or rocksdb-window-... */
  private static final String STORE_TAG_SUFFIX = "-state-id";

  private final Supplier<Map<MetricName, ? extends Metric>> metrics;

  private final Supplier<Map<String, Long>> ownStores;

  /** Reads the sizes from the metrics {@code metrics} supplies, such as those of Kafka Streams. */
  public StoreDiskUsage(Supplier<Map<MetricName, ? extends Metric>> metrics) {
    this(metrics, Map::of);
  }

  /**
   * Reads the sizes from the metrics {@code metrics} supplies, and those of the stores that no
   * metric measures, by store name, from {@code ownStores}.
   */
  public StoreDiskUsage(
      Supplier<Map<MetricName, ? extends Metric>> metrics, Supplier<Map<String, Long>> ownStores) {
    this.metrics = metrics;
    this.ownStores = ownStores;
  }

  /** Bytes of every store with open partitions on this instance, by store name. */
  public Map<String, Long> bytesByStore() {
    Map<String, Long> bytes = new TreeMap<>(this.ownStores.get());
    this.metrics
        .get()
        .forEach(
            (name, metric) -> {
              String store = storeOf(name);
              if (store != null) {
                bytes.merge(store, bytesOf(metric), Long::sum);
              }
            });
    return bytes;
  }

  /** Bytes of the store named {@code store} on this instance, 0 when none of it is open here. */
  public long bytes(String store) {
    long bytes = this.ownStores.get().getOrDefault(store, 0L);
    for (Map.Entry<MetricName, ? extends Metric> entry : this.metrics.get().entrySet()) {
      if (store.equals(storeOf(entry.getKey()))) {
        bytes += bytesOf(entry.getValue());
      }
    }
    return bytes;
  }

  private static @Nullable String storeOf(MetricName name) {
    if (!METRIC.equals(name.name()) || !GROUP.equals(name.group())) {
      return null;
    }
    for (Map.Entry<String, String> tag : name.tags().entrySet()) {
      if (tag.getKey().endsWith(STORE_TAG_SUFFIX)) {
        return tag.getValue();
      }
    }
    return null;
  }

  /** The metric's bytes; 0 when it cannot be read, such as for a partition closing just now. */
  private static long bytesOf(Metric metric) {
    try {
      Object value = metric.metricValue();
      if (value instanceof BigInteger big) {
        return big.bitLength() < Long.SIZE ? big.longValue() : Long.MAX_VALUE;
      }
      return (value instanceof Number number) ? number.longValue() : 0;
    } catch (RuntimeException ex) {
      return 0;
    }
  }
}
