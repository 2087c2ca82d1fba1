package dev.matview.benchmarks.lookups;

import dev.matview.rocksdb.BoundedMemoryRocksDBConfigSetter;
import dev.matview.rocksdb.RocksDBMemoryLimits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.FlushOptions;
import org.rocksdb.HyperClockCache;
import org.rocksdb.IndexType;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * What Matview's memory bound costs a point read: RocksDB's read of a random key of a store that
 * holds {@code keys} keys, in the level-0 table files of its first updates or compacted into one
 * run, with the settings Kafka Streams gives every store and with Matview's bound applied over
 * them. The benchmarks run those two; the other settings are experiments over the bound, run by
 * naming them ({@code -p settings=...}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PointReadJmh {

  /** Kafka Streams' own settings for every store. */
  public static final String KAFKA_DEFAULTS = "kafka-defaults";

  /** The settings of {@link BoundedMemoryRocksDBConfigSetter} over Kafka Streams' own. */
  public static final String BOUNDED = "bounded";

  /**
   * An experiment, not run by the benchmarks: the bound with RocksDB's lock-free HyperClockCache as
   * this store's block cache instead of the shared LRU cache.
   */
  public static final String BOUNDED_HYPER_CLOCK = "bounded-hyper-clock-cache";

  /**
   * An experiment, not run by the benchmarks: the bound with one index block and one filter block
   * per table file instead of partitions of each.
   */
  public static final String BOUNDED_UNPARTITIONED = "bounded-unpartitioned";

  /**
   * An experiment, not run by the benchmarks: the bound without filters in the last level, which a
   * read that finds its key there does not need.
   */
  public static final String BOUNDED_FILTERS_FOR_HITS = "bounded-filters-for-hits";

  /** Table files as two flushes of updates leave them (level 0). */
  public static final String FLUSHED = "flushed";

  /** One sorted run in the last level, as a full compaction leaves it. */
  public static final String COMPACTED = "compacted";

  /** Bytes of each stored value: Kafka Streams' 8-byte timestamp and a small JSON aggregate. */
  static final int VALUE_BYTES = 68;

  private static final String STORE = "point-read";

  /** Which settings the store opens with. */
  @Param({KAFKA_DEFAULTS, BOUNDED})
  public String settings = BOUNDED;

  /** How the store's table files lie. */
  @Param({FLUSHED, COMPACTED})
  public String layout = FLUSHED;

  /** How many keys the store holds. */
  @Param("250000")
  public int keys = 250_000;

  @SuppressWarnings("NullAway.Init")
  private Path dir;

  @SuppressWarnings("NullAway.Init")
  private KafkaStreamsOptions kafkaStreams;

  @SuppressWarnings("NullAway.Init")
  private Options options;

  private @Nullable BoundedMemoryRocksDBConfigSetter bound;

  private @Nullable Cache experimentCache;

  @SuppressWarnings("NullAway.Init")
  private RocksDB db;

  @SuppressWarnings("NullAway.Init")
  private byte[][] storedKeys;

  /**
   * Opens the store and fills it: every key once, then every third key again, each pass flushed to
   * table files, as the first updates of a view leave its store; then compacts it when asked.
   */
  @Setup
  public void setUp() throws IOException, RocksDBException {
    RocksDB.loadLibrary();
    this.dir = Files.createTempDirectory("point-read");
    this.kafkaStreams = new KafkaStreamsOptions();
    this.options = this.kafkaStreams.options();
    if (this.settings.startsWith(BOUNDED)) {
      this.bound = new BoundedMemoryRocksDBConfigSetter();
      this.bound.setConfig(STORE, this.options, Map.of());
      applyExperiment();
    } else if (!KAFKA_DEFAULTS.equals(this.settings)) {
      throw new IllegalArgumentException("Unknown settings: " + this.settings);
    }
    this.db = RocksDB.open(this.options, this.dir.toString());
    this.storedKeys = new byte[this.keys][];
    for (int i = 0; i < this.keys; i++) {
      this.storedKeys[i] = ("customer-" + i).getBytes(StandardCharsets.UTF_8);
    }
    SplittableRandom random = new SplittableRandom(1);
    try (WriteOptions write = new WriteOptions().setDisableWAL(true);
        FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < this.keys; i += (pass == 0) ? 1 : 3) {
          byte[] value = new byte[VALUE_BYTES];
          random.nextBytes(value);
          this.db.put(write, this.storedKeys[i], value);
        }
        this.db.flush(flush);
      }
    }
    if (COMPACTED.equals(this.layout)) {
      this.db.compactRange();
    } else if (!FLUSHED.equals(this.layout)) {
      throw new IllegalArgumentException("Unknown layout: " + this.layout);
    }
  }

  private void applyExperiment() {
    BlockBasedTableConfig table = (BlockBasedTableConfig) this.options.tableFormatConfig();
    switch (this.settings) {
      case BOUNDED -> {}
      case BOUNDED_HYPER_CLOCK -> {
        this.experimentCache =
            new HyperClockCache(RocksDBMemoryLimits.DEFAULT_TOTAL_BYTES, 0, -1, false);
        table.setBlockCache(this.experimentCache);
      }
      case BOUNDED_UNPARTITIONED -> {
        table.setIndexType(IndexType.kBinarySearch);
        table.setPartitionFilters(false);
      }
      case BOUNDED_FILTERS_FOR_HITS -> this.options.setOptimizeFiltersForHits(true);
      default -> throw new IllegalArgumentException("Unknown settings: " + this.settings);
    }
    this.options.setTableFormatConfig(table);
  }

  /** Closes the store and deletes its files. */
  @TearDown
  public void tearDown() throws IOException {
    this.db.close();
    if (this.bound != null) {
      this.bound.close(STORE, this.options);
    }
    this.kafkaStreams.close();
    if (this.experimentCache != null) {
      this.experimentCache.close();
    }
    try (Stream<Path> files = Files.walk(this.dir)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    }
  }

  /** Reads one random key. */
  @Benchmark
  public byte[] get() throws RocksDBException {
    byte[] value = this.db.get(this.storedKeys[ThreadLocalRandom.current().nextInt(this.keys)]);
    if (value == null) {
      throw new IllegalStateException("A stored key was not found");
    }
    return value;
  }
}
