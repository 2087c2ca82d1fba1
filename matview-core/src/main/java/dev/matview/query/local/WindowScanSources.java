package dev.matview.query.local;

import dev.matview.query.answer.ScanPosition;
import dev.matview.replica.StoreHandles;
import dev.matview.replica.WindowHandle;
import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewWindow;
import java.time.Instant;
import java.util.function.Function;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlySessionStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.WindowStore;
import org.jspecify.annotations.Nullable;

/**
 * Where a scan page of one partition of a windowed view's store reads its windows from: the
 * partition's RocksDB directly, unless Kafka's record cache holds an update of any key that RocksDB
 * lacks, and else the store API, which reads through the cache.
 */
final class WindowScanSources {

  private final LocalRefusals refusals;

  private final WindowStores stores;

  private final StoreHandles handles;

  private final Function<ResolvedView<?, ?, ?>, String> storeTopics;

  WindowScanSources(
      LocalRefusals refusals,
      WindowStores stores,
      StoreHandles handles,
      Function<ResolvedView<?, ?, ?>, String> storeTopics) {
    this.refusals = refusals;
    this.stores = stores;
    this.handles = handles;
    this.storeTopics = storeTopics;
  }

  /**
   * Opens iterators over the windows of {@code partition} from {@code fromKey} (or the first key)
   * on whose segment time lies in a range (not before {@code from}) and that may start in [from,
   * to]: a superset the caller narrows to the windows that start in it.
   */
  <K> WindowPage.SegmentReads<K> open(
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

  /** The iterators {@code raw} opens over a partition's RocksDB, read with the view's serdes. */
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
}
