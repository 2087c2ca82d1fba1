package dev.matview.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * What {@code /actuator/matviews} answers.
 *
 * @param views every view, in declaration order
 * @param topology Kafka Streams' description of the topology, or {@code null} before it is built
 * @param instances every instance of the application by host and port, from Kafka Streams'
 *     metadata; none while Kafka Streams is neither running nor rebalancing
 * @param lags the restore or standby lag of each store partition this instance tracks
 * @param rocksdbMemory RocksDB's shared memory, or {@code null} when no store uses a bounded pool
 * @param disk the state dir's free space
 * @param lookupBasePath the base path of the lookup endpoints, or {@code null} when they are off
 * @param lookups the lookups this instance served recently, or {@code null} when they are not
 *     counted
 * @param deadLetters the dead letters this instance wrote since it started, by view ({@code none}
 *     for records of no view)
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
   * One view.
   *
   * @param name the view's name
   * @param kind {@code table}, {@code windowed} or {@code session}
   * @param keyType the simple name of the key type
   * @param valueType the simple name of the value type
   * @param window the window, or {@code null} for a table
   * @param storeName the state store's name
   * @param sourceTopic the topic the view reads
   * @param repartitionTopic the topic a re-keyed view's records go through, or {@code null}
   * @param changelogTopic the store's changelog topic
   * @param diskBytes the bytes of its live SST files on this instance
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
   * A view's window, as {@code GET /views} gives it; a session window's size is its inactivity gap.
   *
   * @param type {@code tumbling}, {@code hopping} or {@code session}
   * @param size the window's size
   * @param advance how far windows start apart
   * @param grace how late records may arrive
   * @param retention how long windows are kept
   */
  public record WindowDescriptor(
      String type, Duration size, Duration advance, Duration grace, Duration retention) {}

  /**
   * One instance of the application.
   *
   * @param host its {@code host:port}
   * @param local whether it is the instance that answers
   * @param active the store partitions it holds as active replica, by view
   * @param standby the store partitions it holds as standby replica, by view
   */
  public record InstanceDescriptor(
      String host,
      boolean local,
      Map<String, List<Integer>> active,
      Map<String, List<Integer>> standby) {}

  /**
   * How far one local store partition is behind its changelog.
   *
   * @param view the view, whose store it is
   * @param partition the partition
   * @param role {@code active} or {@code standby}
   * @param startOffset the changelog offset the restore or standby update started from
   * @param currentOffset the next changelog offset to apply
   * @param endOffset one past the last changelog offset known, or {@code null} while a standby has
   *     not learnt it yet
   * @param lag changelog offsets still to apply, or {@code null} while the end is not known
   * @param recordsPerSecond records applied per second, recently
   * @param etaSeconds seconds until caught up, or {@code null} while no progress has been seen
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

  /**
   * RocksDB's off-heap memory, shared by every store of the process.
   *
   * @param usedBytes bytes the shared block cache holds, memtables included
   * @param boundBytes the bound on them
   * @param openStores RocksDB stores open on the shared pools, a windowed store's segments each
   */
  public record MemoryDescriptor(long usedBytes, long boundBytes, int openStores) {}

  /**
   * The state dir's disk.
   *
   * @param stateDir the state dir, absolute
   * @param freeBytes bytes this process may still write there
   * @param minFreeBytes the free bytes below which health is {@code OUT_OF_SERVICE}
   */
  public record DiskDescriptor(String stateDir, long freeBytes, long minFreeBytes) {}

  /**
   * The lookups this instance served lately, per route, in buckets of equal width, oldest first;
   * the bucket filling now is left out.
   *
   * @param bucketMillis the width of one bucket
   * @param routes the buckets of the routes {@code local}, {@code forwarded} and {@code standby}
   */
  public record LookupsDescriptor(long bucketMillis, Map<String, RouteDescriptor> routes) {}

  /**
   * The lookups of one route, one element per bucket.
   *
   * @param counts how many lookups each bucket saw
   * @param meanMillis their mean time in milliseconds, 0 for a bucket without lookups
   */
  public record RouteDescriptor(List<Long> counts, List<Double> meanMillis) {}
}
