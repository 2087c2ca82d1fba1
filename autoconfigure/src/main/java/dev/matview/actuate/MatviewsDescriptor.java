package dev.matview.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * What {@code /actuator/matviews} answers; {@code topology} is null before it is built, {@code
 * instances} empty while Kafka Streams neither runs nor rebalances, {@code rocksdbMemory} null
 * while no store uses a bounded pool, {@code lookupBasePath} and {@code lookups} null when off, and
 * {@code deadLetters} by view ({@code none} for records of no view).
 */
public record MatviewsDescriptor(
    List<ViewDescriptor> views,
    @Nullable String topology,
    List<InstanceDescriptor> instances,
    List<LagDescriptor> lags,
    @Nullable MemoryDescriptor rocksdbMemory,
    DiskDescriptor disk,
    @Nullable String lookupBasePath,
    @Nullable LookupsDescriptor lookups,
    Map<String, Long> deadLetters)
    implements OperationResponseBody {

  /**
   * One view: {@code kind} is {@code table}, {@code windowed} or {@code session}, the types their
   * simple names, {@code window} and {@code repartitionTopic} null where there is none, {@code
   * diskBytes} its live SST files here.
   */
  public record ViewDescriptor(
      String name,
      String kind,
      String keyType,
      String valueType,
      @Nullable WindowDescriptor window,
      String storeName,
      String sourceTopic,
      @Nullable String repartitionTopic,
      String changelogTopic,
      long diskBytes) {}

  /**
   * A view's window, as {@code GET /views} gives it, its {@code type} {@code tumbling}, {@code
   * hopping} or {@code session}, whose size is its inactivity gap.
   */
  public record WindowDescriptor(
      String type, Duration size, Duration advance, Duration grace, Duration retention) {}

  /**
   * One instance by {@code host:port}, whether it is the one that answers, and its active and
   * standby store partitions by view.
   */
  public record InstanceDescriptor(
      String host,
      boolean local,
      Map<String, List<Integer>> active,
      Map<String, List<Integer>> standby) {}

  /**
   * How far one local store partition of {@code view} is behind its changelog: {@code role} is
   * {@code active} or {@code standby}, {@code currentOffset} the next offset to apply, {@code
   * endOffset} one past the last and {@code lag} null while not known, {@code etaSeconds} null
   * while no progress has been seen.
   */
  public record LagDescriptor(
      String view,
      int partition,
      String role,
      long startOffset,
      long currentOffset,
      @Nullable Long endOffset,
      @Nullable Long lag,
      long recordsPerSecond,
      @Nullable Long etaSeconds) {}

  /** RocksDB's shared off-heap memory against its bound, and the stores open on it. */
  public record MemoryDescriptor(long usedBytes, long boundBytes, int openStores) {}

  /** The state dir's free bytes, and those below which health is {@code OUT_OF_SERVICE}. */
  public record DiskDescriptor(String stateDir, long freeBytes, long minFreeBytes) {}

  /**
   * The lookups this instance served lately, per route ({@code local}, {@code forwarded}, {@code
   * standby}), in buckets of {@code bucketMillis}, oldest first, without the bucket filling now.
   */
  public record LookupsDescriptor(long bucketMillis, Map<String, RouteDescriptor> routes) {}

  /** The lookups of one route per bucket, and their mean time in milliseconds (0 for none). */
  public record RouteDescriptor(List<Long> counts, List<Double> meanMillis) {}
}
