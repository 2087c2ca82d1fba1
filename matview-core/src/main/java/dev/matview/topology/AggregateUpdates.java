package dev.matview.topology;

import dev.matview.replica.AppliedOffset;
import dev.matview.replica.ChangelogSizeCheck;
import dev.matview.replica.StorePositions;
import dev.matview.view.ViewWindow;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.jspecify.annotations.Nullable;

/**
 * What a view's aggregation does around each update it keeps in a store with Kafka's record cache,
 * for one store partition: before, it serializes the aggregate once (the aggregation puts these
 * bytes into the store as a {@link SerializedAggregate}) and refuses one too large for the
 * changelog; after, it tells the partition's change feed, so that change streams hear every update
 * and not only the one a commit writes.
 *
 * @param <A> the aggregate type
 */
final class AggregateUpdates<A> {

  private final ResolvedView<?, ?, A> view;

  private final Serializer<A> serializer;

  private final ChangelogSizeCheck sizeCheck;

  private final boolean timestamped;

  private String changelogTopic = "";

  private @Nullable AppliedOffset applied;

  /**
   * The updates of {@code view}'s store, whose values carry Kafka Streams' 8-byte timestamp unless
   * it is a session store.
   */
  AggregateUpdates(ResolvedView<?, ?, A> view, ChangelogSizeCheck sizeCheck) {
    this.view = view;
    this.serializer = view.aggregateSerde().serializer();
    this.sizeCheck = sizeCheck;
    ViewWindow window = view.window();
    this.timestamped = window == null || window.type() != ViewWindow.Type.SESSION;
  }

  /** Serves the store partition of the task whose processor {@code context} is. */
  void init(ProcessorContext<?, ?> context, StorePositions positions) {
    this.changelogTopic = this.view.changelogTopic(context.applicationId());
    this.applied = positions.of(this.view.storeName(), context.taskId().partition());
  }

  /** The topic the store's keys and values are serialized for: its changelog topic. */
  String changelogTopic() {
    return this.changelogTopic;
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
      byte[] stored = this.timestamped ? StoredValues.timestamped(timestamp, aggregate) : aggregate;
      offset.updated(key, stored, windowStart, windowEnd);
    }
  }
}
