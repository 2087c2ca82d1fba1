package dev.matview.replica;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.TimestampedBytesStore;
import org.jspecify.annotations.Nullable;

/**
 * The store of one partition (Kafka's, or Matview's own for a table) behind one of Matview's
 * wrappers: passes on what every state store does and, from the moment Kafka Streams has opened the
 * store until it closes it, registers its handle with the {@link OpenPartitions} of its kind and
 * how far it has applied its topic with the {@link StorePositions}.
 */
abstract class WrappedStore<S extends StateStore, H extends PartitionHandle> implements StateStore {

  /** The store wrapped, to which every call is passed on. */
  protected final S store;

  private final StorePositions positions;

  private final OpenPartitions<S, H> partitions;

  private final ChangelogSizeCheck sizeCheck;

  private volatile @Nullable AppliedOffset applied;

  private volatile @Nullable H handle;

  WrappedStore(
      S store,
      StorePositions positions,
      OpenPartitions<S, H> partitions,
      ChangelogSizeCheck sizeCheck) {
    this.store = store;
    this.positions = positions;
    this.partitions = partitions;
    this.sizeCheck = sizeCheck;
  }

  /**
   * Refuses an update too large for the changelog before the store keeps it; {@code prefix} bytes
   * of {@code value} (a timestamped store's 8-byte timestamp) are not in the changelog record.
   */
  final void checkSize(Bytes key, byte @Nullable [] value, int prefix) {
    if (value != null) {
      this.sizeCheck.check(key.get().length, value.length - prefix);
    }
  }

  /** {@code store}, refused unless Kafka Streams keeps timestamps in it. */
  static <S extends StateStore> S requireTimestamped(S store) {
    if (!(store instanceof TimestampedBytesStore)) {
      throw new IllegalArgumentException(
          "Store '" + store.name() + "' does not keep timestamps; a timestamped store is needed");
    }
    return store;
  }

  /** The handle of the partition, once Kafka Streams has opened it. */
  protected @Nullable H handle() {
    return this.handle;
  }

  @Override
  public final void init(StateStoreContext context, StateStore root) {
    this.store.init(context, root);
    int partition = context.taskId().partition();
    this.applied = this.positions.opened(this.store.name(), partition, this.store);
    this.handle = this.partitions.opened(this.store.name(), partition, this.store);
  }

  @Override
  public final void close() {
    AppliedOffset open = this.applied;
    if (open != null) {
      this.partitions.closed(this.store.name(), open.partition(), this.store);
      this.positions.closed(this.store.name(), open);
    }
    this.store.close();
  }

  @Override
  public String name() {
    return this.store.name();
  }

  @Override
  public void flush() {
    this.store.flush();
  }

  @Override
  public boolean persistent() {
    return this.store.persistent();
  }

  @Override
  public boolean isOpen() {
    return this.store.isOpen();
  }

  @Override
  public <R> QueryResult<R> query(Query<R> query, PositionBound bound, QueryConfig config) {
    return this.store.query(query, bound, config);
  }

  @Override
  public Position getPosition() {
    return this.store.getPosition();
  }
}
