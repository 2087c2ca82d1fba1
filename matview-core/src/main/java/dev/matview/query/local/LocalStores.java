package dev.matview.query.local;

import dev.matview.position.ReadBound;
import dev.matview.query.answer.KeyItem;
import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.Slice;
import dev.matview.query.answer.WindowItem;
import dev.matview.query.answer.WindowValue;
import dev.matview.replica.StoreHandles;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.view.ViewWindow;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;
import org.jspecify.annotations.Nullable;

/**
 * Reads one partition of a view's store on this instance: a table's key from the store partition's
 * handle once it is known to run (through Kafka Streams until then, and while the record cache
 * holds an update of the key that RocksDB lacks), a table's scan through the store API in stored
 * key order, which reads through the record cache, and windows through {@link LocalWindows}.
 */
public final class LocalStores {

  private final LocalRefusals refusals;

  private final LocalWindows windows;

  private final LocalPositions positions;

  private final ReadIsolation isolation;

  private final TableLookups lookups;

  private final TableScans scans;

  /** Reads the stores of {@code streams}, without knowing whether they are caught up. */
  public LocalStores(Supplier<@Nullable KafkaStreams> streams) {
    this(
        streams,
        LocalReplicas.NONE,
        new StoreHandles(),
        StoreTopics.NONE,
        null,
        ReadIsolation.AT_LEAST_ONCE);
  }

  /** Reads the stores of the views in {@code registry} that {@code streams} runs. */
  public LocalStores(
      Supplier<@Nullable KafkaStreams> streams,
      LocalReplicas replicas,
      StoreHandles handles,
      ViewRegistry registry,
      @Nullable SourceRecords sources,
      ReadIsolation isolation) {
    this(streams, replicas, handles, StoreTopics.of(registry), sources, isolation);
  }

  private LocalStores(
      Supplier<@Nullable KafkaStreams> streams,
      LocalReplicas replicas,
      StoreHandles handles,
      StoreTopics storeTopics,
      @Nullable SourceRecords sources,
      ReadIsolation isolation) {
    this.isolation = isolation;
    this.refusals = new LocalRefusals(streams, replicas);
    this.windows = new LocalWindows(this.refusals, handles, storeTopics);
    this.lookups = new TableLookups(this.refusals, handles, storeTopics);
    this.scans = new TableScans(this.refusals, handles, storeTopics);
    this.positions = new LocalPositions(handles, sources, isolation);
  }

  /** Which key lookups read committed state only. */
  public ReadIsolation isolation() {
    return this.isolation;
  }

  /** How far the store partitions here have applied their topics. */
  public LocalPositions positions() {
    return this.positions;
  }

  /** Why this instance's replica of a partition cannot answer. */
  LocalRefusals refusals() {
    return this.refusals;
  }

  /**
   * The value of {@code key} in {@code partition}, or {@code null}, committed as {@code bound}
   * asks.
   */
  public <K> @Nullable Object get(
      ResolvedView<K, ?, ?> view, K key, int partition, boolean runningActive, ReadBound bound) {
    return this.lookups.get(
        view, key, partition, runningActive, this.isolation.committed(view, bound));
  }

  /** The windows of {@code key} in {@code partition} starting in [from, to], oldest first. */
  public <K> List<WindowValue> windows(
      ResolvedView<K, ?, ?> view,
      ViewWindow window,
      K key,
      int partition,
      Instant from,
      Instant to,
      boolean runningActive) {
    return this.windows.windows(view, window, key, partition, from, to, runningActive);
  }

  /** Up to {@code limit} keys of {@code partition} in [from, to] after {@code after}, as stored. */
  public <K> Slice<KeyItem> keys(
      ResolvedView<K, ?, ?> view,
      int partition,
      @Nullable K from,
      @Nullable K to,
      @Nullable ScanPosition after,
      int limit,
      boolean runningActive,
      boolean committed) {
    return this.scans.keys(
        view,
        partition,
        from,
        to,
        after,
        limit,
        runningActive,
        committed,
        () -> this.lookups.tableStore(view, null, partition, runningActive));
  }

  /**
   * Up to {@code limit} windows of {@code partition} starting in [from, to] after {@code after}.
   */
  public <K> Slice<WindowItem> windowItems(
      ResolvedView<K, ?, ?> view,
      ViewWindow window,
      int partition,
      Instant from,
      Instant to,
      @Nullable ScanPosition after,
      int limit,
      boolean runningActive) {
    return this.windows.windowItems(view, window, partition, from, to, after, limit, runningActive);
  }
}
