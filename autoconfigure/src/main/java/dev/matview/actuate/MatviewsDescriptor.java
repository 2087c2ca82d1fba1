package dev.matview.actuate;

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
 */
public record MatviewsDescriptor(
    List<ViewDescriptor> views,
    @Nullable String topology,
    List<InstanceDescriptor> instances,
    List<LagDescriptor> lags,
    @Nullable MemoryDescriptor rocksdbMemory,
    DiskDescriptor disk)
    implements OperationResponseBody {

  /**
   * One view.
   *
   * @param name the view's name
   * @param kind {@code table}, {@code windowed} or {@code session}
   * @param keyType the simple name of the key type
   * @param valueType the simple name of the value type
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
      String storeName,
      String sourceTopic,
      @Nullable String repartitionTopic,
      String changelogTopic,
      long diskBytes) {}

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
}
