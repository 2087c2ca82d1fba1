package dev.matview.replica;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BiConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowStore;
import org.jspecify.annotations.Nullable;

/**
 * The open partitions of the table and time-windowed views' stores on this instance, active and
 * standby, by store name and partition: each registers when Kafka Streams opens it and leaves when
 * Kafka Streams closes it. As a restore and standby listener it tells each handle whether it may
 * answer as the running active replica. Reading a handle takes no lock.
 */
public final class StoreHandles implements StateRestoreListener, StandbyUpdateListener {

  private final OpenPartitions<KeyValueStore<Bytes, byte[]>, ReplicaHandle> tables =
      new OpenPartitions<>(this::replicaHandle, this::announce);

  private final OpenPartitions<WindowStore<Bytes, byte[]>, WindowHandle<WindowStore<Bytes, byte[]>>>
      windows =
          new OpenPartitions<>(
              (name, store, partition) -> new WindowHandle<>(store, partition), this::announce);

  private final OpenPartitions<
          SessionStore<Bytes, byte[]>, WindowHandle<SessionStore<Bytes, byte[]>>>
      sessions =
          new OpenPartitions<>(
              (name, store, partition) -> new WindowHandle<>(store, partition), this::announce);

  private final StorePositions positions;

  private volatile BiConsumer<String, Integer> whenOpened = (store, partition) -> {};

  /**
   * Handles whose stores' change feeds no stream can follow: for reads without change streams, such
   * as the test kit's and the topology's tests.
   */
  public StoreHandles() {
    this.positions = new StorePositions();
  }

  /**
   * Handles whose stores' change feeds hand their updates to change streams on {@code fanOut}, a
   * feed at a time.
   */
  public StoreHandles(ScheduledExecutorService fanOut) {
    this.positions = new StorePositions(fanOut);
  }

  /**
   * Tells {@code listener} the name and partition of each store Kafka Streams opens, before any
   * restore or standby update of it starts: whatever was known of an earlier store of that
   * partition, such as its lag, no longer holds for this one, which may have been wiped.
   */
  public void whenOpened(BiConsumer<String, Integer> listener) {
    this.whenOpened = listener;
  }

  /**
   * A persistent timestamped key-value store named {@code name}, Matview's own on RocksDB ({@link
   * RocksDBKeyValueStore}), whose partitions register here, and refuse an update before they keep
   * it when {@code sizeCheck} refuses its changelog record; the window and session stores below do
   * the same on Kafka's stores, as its DSL would make them.
   */
  public KeyValueBytesStoreSupplier keyValueStore(String name, ChangelogSizeCheck sizeCheck) {
    return OpenSignallingStores.keyValue(name, this, sizeCheck);
  }

  /** A persistent timestamped window store named {@code name}, as {@link #keyValueStore}. */
  public WindowBytesStoreSupplier windowStore(
      String name, Duration retention, Duration size, ChangelogSizeCheck sizeCheck) {
    return OpenSignallingStores.window(
        Stores.persistentTimestampedWindowStore(name, retention, size, false), this, sizeCheck);
  }

  /** A persistent session store named {@code name}, as {@link #keyValueStore}. */
  public SessionBytesStoreSupplier sessionStore(
      String name, Duration retention, ChangelogSizeCheck sizeCheck) {
    return OpenSignallingStores.session(
        Stores.persistentSessionStore(name, retention), this, sizeCheck);
  }

  /** How far each open store partition here, of every view, has applied its topic. */
  public StorePositions positions() {
    return this.positions;
  }

  /**
   * The bytes of each table view's store on this instance's disk, by store name: its live SST
   * files, over its open partitions, active and standby.
   */
  public Map<String, Long> tableStoreBytes() {
    return this.tables.sums(ReplicaHandle::liveDataBytes);
  }

  /**
   * What a stream thread's producer runs on that thread once its transaction committed, under
   * exactly-once: every table store partition that thread writes holds committed state only, until
   * the thread processes its next record, so each pins that state for reads of committed state,
   * with how far it applied.
   */
  public Runnable transactionCommits() {
    return () -> {
      Thread thread = Thread.currentThread();
      this.tables.forEach(
          (handle) -> {
            if (handle.writtenBy(thread)) {
              handle.committed();
            }
          });
    };
  }

  /** The open handle of {@code partition} of the store {@code name} here, or {@code null}. */
  public @Nullable ReplicaHandle handle(String name, int partition) {
    return this.tables.get(name, partition);
  }

  /** The open handle of {@code partition} of the window store {@code name}, or {@code null}. */
  public @Nullable WindowHandle<WindowStore<Bytes, byte[]>> windowHandle(
      String name, int partition) {
    return this.windows.get(name, partition);
  }

  /** The open handle of {@code partition} of the session store {@code name}, or {@code null}. */
  public @Nullable WindowHandle<SessionStore<Bytes, byte[]>> sessionHandle(
      String name, int partition) {
    return this.sessions.get(name, partition);
  }

  OpenPartitions<KeyValueStore<Bytes, byte[]>, ReplicaHandle> tables() {
    return this.tables;
  }

  OpenPartitions<WindowStore<Bytes, byte[]>, WindowHandle<WindowStore<Bytes, byte[]>>> windows() {
    return this.windows;
  }

  OpenPartitions<SessionStore<Bytes, byte[]>, WindowHandle<SessionStore<Bytes, byte[]>>>
      sessions() {
    return this.sessions;
  }

  private ReplicaHandle replicaHandle(
      String name, KeyValueStore<Bytes, byte[]> store, int partition) {
    return new ReplicaHandle(store, partition, () -> this.positions.of(name, partition));
  }

  private void announce(String name, int partition) {
    this.whenOpened.accept(name, partition);
  }

  @Override
  public void onRestoreStart(
      TopicPartition changelog, String store, long startingOffset, long endingOffset) {
    this.positions.updating(store, changelog.partition());
    ReplicaHandle handle = handle(store, changelog.partition());
    if (handle != null) {
      handle.updating();
      handle.keptOpened();
    }
  }

  @Override
  public void onBatchRestored(
      TopicPartition changelog, String store, long batchEndOffset, long numRestored) {
    batchWritten(store, changelog.partition());
  }

  /** A batch of committed changelog records was written to {@code partition} of {@code store}. */
  private void batchWritten(String store, int partition) {
    this.positions.batchWritten(store, partition);
    ReplicaHandle handle = handle(store, partition);
    if (handle != null) {
      handle.committed();
    }
  }

  @Override
  public void onRestoreEnd(TopicPartition changelog, String store, long totalRestored) {
    batchWritten(store, changelog.partition());
    ReplicaHandle handle = handle(store, changelog.partition());
    if (handle != null) {
      handle.restored();
    }
  }

  @Override
  public void onUpdateStart(TopicPartition changelog, String store, long startingOffset) {
    onRestoreStart(changelog, store, startingOffset, startingOffset);
  }

  @Override
  public void onBatchLoaded(
      TopicPartition changelog,
      String store,
      TaskId taskId,
      long batchEndOffset,
      long batchSize,
      long currentEndOffset) {
    batchWritten(store, changelog.partition());
  }

  @Override
  public void onUpdateSuspended(
      TopicPartition changelog,
      String store,
      long storeOffset,
      long currentEndOffset,
      SuspendReason reason) {}
}
