package dev.matview.topology;

import dev.matview.replica.AppliedOffset;
import dev.matview.replica.ChangelogSizeCheck;
import dev.matview.replica.StoreHandles;
import dev.matview.view.Aggregation;
import dev.matview.view.MergeableAggregation;
import dev.matview.view.ViewWindow;
import java.nio.ByteBuffer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.jspecify.annotations.Nullable;

/**
 * A view's aggregation into one partition of its store, which has Kafka's record cache, as the
 * view's processor applies it to each record: the aggregate the record makes of the one stored (the
 * initial one for a new key or window), and what goes around each update kept. Before, it
 * serializes the aggregate once (the processor puts these bytes into the store as a {@link
 * SerializedAggregate}) and refuses one too large for the changelog; after, it tells the
 * partition's change feed, so that change streams hear every update and not only the one a commit
 * writes.
 */
final class StoreAggregation<K, V, A> {

  private final ResolvedView<K, V, A> view;

  private final Aggregation<? super K, ? super V, A> aggregation;

  private final Serializer<A> serializer;

  private final ChangelogSizeCheck sizeCheck;

  private final StoreHandles handles;

  private final boolean timestamped;

  private String changelogTopic = "";

  private @Nullable AppliedOffset applied;

  private int partition = -1;

  /**
   * The aggregation of {@code view} into its store, whose partitions are known to {@code handles}
   * and whose values carry Kafka Streams' 8-byte timestamp unless it is a session store.
   */
  StoreAggregation(ResolvedView<K, V, A> view, ChangelogSizeCheck sizeCheck, StoreHandles handles) {
    this.view = view;
    this.aggregation = view.definition().aggregation();
    this.serializer = view.aggregateSerde().serializer();
    this.sizeCheck = sizeCheck;
    this.handles = handles;
    ViewWindow window = view.window();
    this.timestamped = window == null || window.type() != ViewWindow.Type.SESSION;
  }

  /** Serves the store partition of the task whose processor {@code context} is; its store. */
  <S extends StateStore> S init(ProcessorContext<?, ?> context) {
    this.partition = context.taskId().partition();
    this.changelogTopic = this.view.changelogTopic(context.applicationId());
    this.applied = this.handles.positions().of(this.view.storeName(), this.partition);
    return context.getStateStore(this.view.storeName());
  }

  /** The handle of the partition served that {@code lookup} finds, if it is open. */
  <H> @Nullable H handle(HandleLookup<H> lookup) {
    return lookup.find(this.handles, this.view.storeName(), this.partition);
  }

  /** The aggregate of a key or window that has no records yet. */
  @Nullable A initial() {
    return this.aggregation.initial();
  }

  /** {@code aggregate} with {@code value} of {@code key} added. */
  @Nullable A add(K key, V value, @Nullable A aggregate) {
    return this.aggregation.add(key, value, aggregate);
  }

  /** The aggregate {@code previous} holds, the initial one for none, with {@code value} added. */
  @Nullable A added(K key, V value, @Nullable ValueAndTimestamp<Object> previous) {
    return add(
        key,
        value,
        (previous != null) ? SerializedAggregate.aggregate(previous.value()) : initial());
  }

  /** {@code aggregate} merged with {@code stored}, an aggregate of the session view's store. */
  @SuppressWarnings("unchecked")
  @Nullable A merged(K key, @Nullable A aggregate, Object stored) {
    return ((MergeableAggregation<? super K, ? super V, A>) this.aggregation)
        .merge(key, aggregate, SerializedAggregate.aggregate(stored));
  }

  /** The time of an update at {@code timestamp}: the one of {@code previous} if that is later. */
  static long updatedAt(long timestamp, @Nullable ValueAndTimestamp<?> previous) {
    return (previous != null) ? Math.max(timestamp, previous.timestamp()) : timestamp;
  }

  /** {@code key} as the store's changelog carries it. */
  byte[] key(K key) {
    return this.view.serializedKey(this.changelogTopic, key);
  }

  /**
   * {@code aggregate} serialized, {@code null} for none, after checking that its changelog record
   * with {@code key} fits.
   */
  byte @Nullable [] serialized(byte[] key, @Nullable A aggregate) {
    if (aggregate == null) {
      return null;
    }
    byte[] bytes = this.serializer.serialize(this.changelogTopic, aggregate);
    if (bytes != null) {
      this.sizeCheck.check(key.length, bytes.length);
    }
    return bytes;
  }

  /**
   * The store kept an update of {@code key} to {@code aggregate} (its bytes, or {@code null} for a
   * removal) at {@code timestamp}: tells the change feed, if anyone follows it, the value as the
   * store keeps it. The window bounds are {@link dev.matview.replica.StoreChange#NO_WINDOW} for a
   * store without windows.
   */
  void kept(
      byte[] key, long timestamp, byte @Nullable [] aggregate, long windowStart, long windowEnd) {
    AppliedOffset offset = this.applied;
    if (offset != null && offset.changes().isFollowed()) {
      byte[] stored = this.timestamped ? timestamped(timestamp, aggregate) : aggregate;
      offset.updated(key, stored, windowStart, windowEnd);
    }
  }

  /**
   * {@code aggregate} as a timestamped store keeps it: Kafka Streams' 8-byte timestamp, then the
   * aggregate; {@code null} for a removal.
   */
  private static byte @Nullable [] timestamped(long timestamp, byte @Nullable [] aggregate) {
    if (aggregate == null) {
      return null;
    }
    return ByteBuffer.allocate(Long.BYTES + aggregate.length)
        .putLong(timestamp)
        .put(aggregate)
        .array();
  }

  /** Finds the handle of an open partition of a store, by store name and partition. */
  @FunctionalInterface
  interface HandleLookup<H> {
    @Nullable H find(StoreHandles handles, String storeName, int partition);
  }
}
