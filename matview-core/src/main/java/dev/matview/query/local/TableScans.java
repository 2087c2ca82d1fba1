package dev.matview.query.local;

import dev.matview.query.answer.KeyItem;
import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.Slice;
import dev.matview.replica.ReplicaHandle;
import dev.matview.replica.StoreHandles;
import dev.matview.topology.ResolvedView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.jspecify.annotations.Nullable;

/** Reads slices of a table view's partition here in stored key order, for scans. */
final class TableScans {

  private final LocalRefusals refusals;

  private final StoreHandles handles;

  private final Function<ResolvedView<?, ?, ?>, String> storeTopic;

  TableScans(
      LocalRefusals refusals,
      StoreHandles handles,
      Function<ResolvedView<?, ?, ?>, String> storeTopic) {
    this.refusals = refusals;
    this.handles = handles;
    this.storeTopic = storeTopic;
  }

  /**
   * Up to {@code limit} keys of {@code partition} in [from, to] that come after {@code after}, in
   * stored key order; from a running active replica only when {@code runningActive}, else also from
   * a standby or restoring one, else {@code throughStreams}. The partition's RocksDB is read
   * directly while the record cache holds no update it lacks; else Kafka Streams merges the cache
   * into the range, which copies the cached keys of the range on each call.
   */
  <K> Slice<KeyItem> keys(
      ResolvedView<K, ?, ?> view,
      int partition,
      @Nullable K from,
      @Nullable K to,
      @Nullable ScanPosition after,
      int limit,
      boolean runningActive,
      boolean committed,
      Supplier<ReadOnlyKeyValueStore<K, Object>> throughStreams) {
    Serde<K> keySerde = view.keySerde();
    K lower =
        after != null ? keySerde.deserializer().deserialize(view.storeName(), after.key()) : from;
    ReplicaHandle handle = this.handles.handle(view.storeName(), partition);
    try (KeyValueIterator<K, Object> range =
        committed
            ? committedRange(view, handle, lower, to, runningActive, throughStreams)
            : (handle != null
                    && !handle.hasUnwritten()
                    && (!runningActive || ReplicaHandle.isReady(handle.readiness())))
                ? storedRange(view, handle, lower, to, false)
                : throughStreams.get().range(lower, to)) {
      return slice(view, range, after, limit);
    } catch (InvalidStateStoreException ex) {
      throw this.refusals.notServing(view, null, partition, ex);
    }
  }

  /** The keys in [from, to] as the partition's last committed transaction left them. */
  private <K> KeyValueIterator<K, Object> committedRange(
      ResolvedView<K, ?, ?> view,
      @Nullable ReplicaHandle handle,
      @Nullable K from,
      @Nullable K to,
      boolean runningActive,
      Supplier<ReadOnlyKeyValueStore<K, Object>> throughStreams) {
    if (handle == null) {
      throughStreams.get().approximateNumEntries();
      throw new InvalidStateStoreException("Its store has not registered its committed state");
    }
    long readiness = handle.readiness();
    if (runningActive && !ReplicaHandle.isReady(readiness)) {
      throughStreams.get().approximateNumEntries();
      handle.markReady(readiness);
    }
    return storedRange(view, handle, from, to, true);
  }

  private static <K> Slice<KeyItem> slice(
      ResolvedView<K, ?, ?> view,
      KeyValueIterator<K, Object> range,
      @Nullable ScanPosition after,
      int limit) {
    Serde<K> keySerde = view.keySerde();
    List<KeyItem> items = new ArrayList<>(Math.min(limit, 1024));
    K lastKey = null;
    boolean first = true;
    while (items.size() < limit && range.hasNext()) {
      KeyValue<K, Object> next = range.next();
      boolean isAfter =
          first
              && after != null
              && Arrays.equals(
                  keySerde.serializer().serialize(view.storeName(), next.key), after.key());
      first = false;
      if (next.value == null || isAfter) {
        continue;
      }
      items.add(new KeyItem(next.key, next.value));
      lastKey = next.key;
    }
    ScanPosition last =
        (lastKey != null)
            ? new ScanPosition(keySerde.serializer().serialize(view.storeName(), lastKey), 0)
            : null;
    return new Slice<>(items, last, !range.hasNext());
  }

  /** The keys of the partition's RocksDB in [from, to], read as Kafka Streams would read them. */
  private <K> KeyValueIterator<K, Object> storedRange(
      ResolvedView<K, ?, ?> view,
      ReplicaHandle handle,
      @Nullable K from,
      @Nullable K to,
      boolean committed) {
    String topic = this.storeTopic.apply(view);
    Bytes lower = (from != null) ? Bytes.wrap(view.serializedKey(topic, from)) : null;
    Bytes upper = (to != null) ? Bytes.wrap(view.serializedKey(topic, to)) : null;
    return new StoredEntries<>(
        view,
        topic,
        committed ? handle.committedRange(lower, upper) : handle.store().range(lower, upper));
  }
}
