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
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.query.WindowKeyQuery;
import org.apache.kafka.streams.query.WindowRangeQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.jspecify.annotations.Nullable;

/**
 * Reads the windows and sessions of one partition of a windowed view's store on this instance: a
 * key's windows through IQv2, a scan's page segment by segment ({@link WindowPage}, from the {@link
 * WindowScanSources}). The store has Kafka's record cache, which IQv2 does not read: while the
 * cache holds an update of a key that RocksDB lacks, its windows are read through the store API,
 * which does.
 */
final class LocalWindows {

  private final LocalRefusals refusals;

  private final WindowStores stores;

  private final StoreHandles handles;

  private final Function<ResolvedView<?, ?, ?>, String> storeTopics;

  private final WindowScanSources scanSources;

  LocalWindows(
      LocalRefusals refusals,
      StoreHandles handles,
      Function<ResolvedView<?, ?, ?>, String> storeTopics) {
    this.refusals = refusals;
    this.stores = new WindowStores(refusals);
    this.handles = handles;
    this.storeTopics = storeTopics;
    this.scanSources = new WindowScanSources(refusals, this.stores, handles, storeTopics);
  }

  /** The windows of {@code key} in {@code partition} starting in [from, to], oldest first. */
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

  /** The windows {@code found} holds with a value, oldest first, read by {@code value}. */
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
   * Up to {@code limit} windows of {@code partition} starting in [from, to] after {@code after}.
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
        this.scanSources.open(view, window, partition, fromKey, after, from, to, runningActive),
        limit);
  }

  /** Whether a window that starts at {@code start} lies in the range [from, to] asked. */
  static boolean startsIn(Instant start, Instant from, Instant to) {
    return !start.isBefore(from) && !start.isAfter(to);
  }
}
