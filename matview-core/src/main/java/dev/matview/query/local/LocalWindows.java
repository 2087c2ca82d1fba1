package dev.matview.query.local;

import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.Slice;
import dev.matview.query.answer.WindowItem;
import dev.matview.query.answer.WindowValue;
import dev.matview.replica.StoreHandles;
import dev.matview.replica.WindowHandle;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.WindowSegments;
import dev.matview.view.ViewWindow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.query.WindowKeyQuery;
import org.apache.kafka.streams.query.WindowRangeQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlySessionStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.jspecify.annotations.Nullable;

/**
 * Reads the windows and sessions of one partition of a windowed view's store on this instance: a
 * key's windows through IQv2, a scan's page segment by segment. The store has Kafka's record cache,
 * which IQv2 does not read: while the cache holds an update of a key that RocksDB lacks, its
 * windows are read through the store API, which does; a scan reads the partition's RocksDB directly
 * unless the cache holds such an update of any key, and else through the store API.
 */
final class LocalWindows {

  private final LocalRefusals refusals;

  private final WindowStores stores;

  private final StoreHandles handles;

  private final Function<ResolvedView<?, ?, ?>, String> storeTopics;

  /**
   * Reads through {@code handles}, where each view's store keys and values are serialized for the
   * topic {@code storeTopics} gives.
   */
  LocalWindows(
      LocalRefusals refusals,
      StoreHandles handles,
      Function<ResolvedView<?, ?, ?>, String> storeTopics) {
    this.refusals = refusals;
    this.stores = new WindowStores(refusals);
    this.handles = handles;
    this.storeTopics = storeTopics;
  }

  /**
   * The windows of {@code key} in {@code partition} whose start lies in [from, to], oldest first.
   */
  <K> List<WindowValue> windows(
      ResolvedView<K, ?, ?> view,
      ViewWindow window,
      K key,
      int partition,
      Instant from,
      Instant to,
      boolean runningActive) {
    if (window.type() == ViewWindow.Type.SESSION) {
      WindowHandle<?> sessions = this.handles.sessionHandle(view.storeName(), partition);
      if (isUnwritten(sessions, view, key)) {
        try (KeyValueIterator<Windowed<K>, Object> found =
            this.stores
                .sessionStore(view, key, partition, runningActive)
                .findSessions(key, from.toEpochMilli(), to.toEpochMilli())) {
          return sessionValues(found, from, to);
        } catch (InvalidStateStoreException ex) {
          throw this.refusals.unavailable(view, key, partition, ex.getMessage());
        }
      }
      WindowRangeQuery<K, Object> query = WindowRangeQuery.withKey(key);
      try (KeyValueIterator<Windowed<K>, Object> found =
          this.stores.query(view, key, partition, query, runningActive)) {
        return sessionValues(found, from, to);
      }
    }
    if (isUnwritten(this.handles.windowHandle(view.storeName(), partition), view, key)) {
      long readable = WindowSegments.lastCacheReadable(window);
      if (from.toEpochMilli() > readable) {
        return List.of();
      }
      Instant cacheTo = to.toEpochMilli() > readable ? Instant.ofEpochMilli(readable) : to;
      try (WindowStoreIterator<Object> found =
          this.stores.windowStore(view, key, partition, runningActive).fetch(key, from, cacheTo)) {
        return windowValues(found, (value) -> value, window);
      } catch (InvalidStateStoreException ex) {
        throw this.refusals.unavailable(view, key, partition, ex.getMessage());
      }
    }
    WindowKeyQuery<K, ValueAndTimestamp<Object>> query =
        WindowKeyQuery.withKeyAndWindowStartRange(key, from, to);
    try (WindowStoreIterator<ValueAndTimestamp<Object>> found =
        this.stores.query(view, key, partition, query, runningActive)) {
      return windowValues(found, ValueAndTimestamp::value, window);
    }
  }

  /** Whether the record cache holds an update of a window of {@code key} that RocksDB lacks. */
  private <K> boolean isUnwritten(
      @Nullable WindowHandle<?> handle, ResolvedView<K, ?, ?> view, K key) {
    return handle != null
        && handle.hasUnwritten()
        && handle.isUnwritten(view.serializedKey(this.storeTopics.apply(view), key));
  }

  /** The sessions {@code found} holds with a value that start in [from, to], oldest first. */
  private static <K> List<WindowValue> sessionValues(
      KeyValueIterator<Windowed<K>, Object> found, Instant from, Instant to) {
    List<WindowValue> windows = new ArrayList<>();
    while (found.hasNext()) {
      KeyValue<Windowed<K>, Object> next = found.next();
      Instant start = next.key.window().startTime();
      if (next.value != null && startsIn(start, from, to)) {
        windows.add(new WindowValue(start, next.key.window().endTime(), next.value));
      }
    }
    return windows;
  }

  /**
   * The windows {@code found} holds with a value, oldest first, each value taken from what the
   * store answered by {@code value}.
   */
  private static <T> List<WindowValue> windowValues(
      WindowStoreIterator<T> found, Function<T, @Nullable Object> value, ViewWindow window) {
    List<WindowValue> windows = new ArrayList<>();
    while (found.hasNext()) {
      KeyValue<Long, T> next = found.next();
      Object windowValue = (next.value != null) ? value.apply(next.value) : null;
      if (windowValue != null) {
        Instant start = Instant.ofEpochMilli(next.key);
        windows.add(new WindowValue(start, start.plus(window.size()), windowValue));
      }
    }
    return windows;
  }

  /**
   * Up to {@code limit} windows of {@code partition} whose start lies in [from, to] and that come
   * after {@code after}, ordered by stored key, then window start.
   */
  <K> Slice<WindowItem> windowItems(
      ResolvedView<K, ?, ?> view,
      ViewWindow window,
      int partition,
      Instant from,
      Instant to,
      @Nullable ScanPosition after,
      int limit,
      boolean runningActive) {
    Serde<K> keySerde = view.keySerde();
    K fromKey =
        after != null ? keySerde.deserializer().deserialize(view.storeName(), after.key()) : null;
    WindowPage<K> page =
        new WindowPage<>(
            keySerde.serializer(),
            view.storeName(),
            window,
            WindowSegments.interval(window).toMillis(),
            from,
            to,
            after);
    return page.read(
        windowIterators(view, window, partition, fromKey, after, from, to, runningActive), limit);
  }

  /**
   * Opens iterators over the windows of {@code partition} from {@code fromKey} (or the first key)
   * on whose segment time lies in a range (not before {@code from}) and that may start in [from,
   * to]: a superset the caller narrows to the windows that start in it.
   */
  private <K> WindowPage.SegmentReads<K> windowIterators(
      ResolvedView<K, ?, ?> view,
      ViewWindow window,
      int partition,
      @Nullable K fromKey,
      @Nullable ScanPosition after,
      Instant from,
      Instant to,
      boolean runningActive) {
    long earliest = from.toEpochMilli();
    try {
      Bytes lower = (after != null) ? Bytes.wrap(after.key()) : null;
      long latest = to.toEpochMilli();
      if (window.type() == ViewWindow.Type.SESSION) {
        ReadOnlySessionStore<K, Object> store =
            this.stores.sessionStore(view, null, partition, runningActive);
        WindowHandle<SessionStore<Bytes, byte[]>> handle =
            this.handles.sessionHandle(view.storeName(), partition);
        if (handle != null && !handle.hasUnwritten()) {
          return stored(
              view,
              false,
              (segmentFrom, segmentTo) ->
                  handle
                      .store()
                      .findSessions(lower, null, Math.max(segmentFrom, earliest), latest));
        }
        return (segmentFrom, segmentTo) ->
            sessionsThatMayStartIn(store, fromKey, Math.max(segmentFrom, earliest), to);
      }
      ReadOnlyWindowStore<K, Object> store =
          this.stores.windowStore(view, null, partition, runningActive);
      WindowHandle<WindowStore<Bytes, byte[]>> handle =
          this.handles.windowHandle(view.storeName(), partition);
      if (handle != null && !handle.hasUnwritten()) {
        return stored(
            view,
            true,
            (segmentFrom, segmentTo) ->
                handle
                    .store()
                    .fetch(
                        lower, null, Math.max(segmentFrom, earliest), Math.min(segmentTo, latest)));
      }
      return (segmentFrom, segmentTo) ->
          store.fetch(
              fromKey,
              null,
              Instant.ofEpochMilli(Math.max(segmentFrom, earliest)),
              Instant.ofEpochMilli(Math.min(segmentTo, latest)));
    } catch (InvalidStateStoreException ex) {
      throw this.refusals.unavailable(view, null, partition, ex.getMessage());
    }
  }

  /**
   * The iterators {@code raw} opens over a partition's RocksDB, read with the view's serdes, values
   * past Kafka Streams' 8-byte timestamp when {@code timestamped}.
   */
  private <K> WindowPage.SegmentReads<K> stored(
      ResolvedView<K, ?, ?> view, boolean timestamped, StoredSegmentReads raw) {
    String topic = this.storeTopics.apply(view);
    return (segmentFrom, segmentTo) ->
        new StoredWindows<>(view, topic, timestamped, raw.open(segmentFrom, segmentTo));
  }

  /**
   * The sessions from {@code fromKey} (or the first key) on that end at or after {@code
   * earliestEnd} and start at or before {@code to}: every session that starts in [from, to] ends at
   * or after its start, so this holds them all, and some that start before {@code from}, which the
   * caller drops. Kafka Streams' read-only session store answers a key range only through the
   * variant in epoch milliseconds; the one taking instants is not implemented and throws.
   */
  private static <K> KeyValueIterator<Windowed<K>, Object> sessionsThatMayStartIn(
      ReadOnlySessionStore<K, Object> store, @Nullable K fromKey, long earliestEnd, Instant to) {
    return store.findSessions(fromKey, null, earliestEnd, to.toEpochMilli());
  }

  /** Opens a partition's RocksDB as {@link WindowPage.SegmentReads} does its windows. */
  @FunctionalInterface
  private interface StoredSegmentReads {
    KeyValueIterator<Windowed<Bytes>, byte[]> open(long segmentFrom, long segmentTo);
  }

  /** Whether a window that starts at {@code start} lies in the range [from, to] asked. */
  static boolean startsIn(Instant start, Instant from, Instant to) {
    return !start.isBefore(from) && !start.isAfter(to);
  }
}
