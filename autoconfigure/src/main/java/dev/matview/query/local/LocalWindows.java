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
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongFunction;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.query.WindowKeyQuery;
import org.apache.kafka.streams.query.WindowRangeQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
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

  private static final Log logger = LogFactory.getLog(LocalWindows.class);

  private final LocalRefusals refusals;

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
            sessionStore(view, key, partition, runningActive).fetch(key)) {
          return sessionValues(found, from, to);
        } catch (InvalidStateStoreException ex) {
          throw this.refusals.unavailable(view, key, partition, ex.getMessage());
        }
      }
      WindowRangeQuery<K, Object> query = WindowRangeQuery.withKey(key);
      try (KeyValueIterator<Windowed<K>, Object> found =
          query(view, key, partition, query, runningActive)) {
        return sessionValues(found, from, to);
      }
    }
    if (isUnwritten(this.handles.windowHandle(view.storeName(), partition), view, key)) {
      try (WindowStoreIterator<Object> found =
          windowStore(view, key, partition, runningActive).fetch(key, from, to)) {
        return windowValues(found, (value) -> value, window);
      } catch (InvalidStateStoreException ex) {
        throw this.refusals.unavailable(view, key, partition, ex.getMessage());
      }
    }
    WindowKeyQuery<K, ValueAndTimestamp<Object>> query =
        WindowKeyQuery.withKeyAndWindowStartRange(key, from, to);
    try (WindowStoreIterator<ValueAndTimestamp<Object>> found =
        query(view, key, partition, query, runningActive)) {
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
   * on whose segment time is at least the epoch millisecond given (and not before {@code from}) and
   * that may start in [from, to]: a superset the caller narrows to the windows that start in it.
   */
  private <K> LongFunction<KeyValueIterator<Windowed<K>, Object>> windowIterators(
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
        ReadOnlySessionStore<K, Object> store = sessionStore(view, null, partition, runningActive);
        WindowHandle<SessionStore<Bytes, byte[]>> handle =
            this.handles.sessionHandle(view.storeName(), partition);
        if (handle != null && !handle.hasUnwritten()) {
          String topic = this.storeTopics.apply(view);
          return segmentFrom ->
              new StoredWindows<>(
                  view,
                  topic,
                  false,
                  handle
                      .store()
                      .findSessions(lower, null, Math.max(segmentFrom, earliest), latest));
        }
        return segmentFrom ->
            sessionsThatMayStartIn(store, fromKey, Math.max(segmentFrom, earliest), to);
      }
      ReadOnlyWindowStore<K, Object> store = windowStore(view, null, partition, runningActive);
      WindowHandle<WindowStore<Bytes, byte[]>> handle =
          this.handles.windowHandle(view.storeName(), partition);
      if (handle != null && !handle.hasUnwritten()) {
        String topic = this.storeTopics.apply(view);
        return segmentFrom ->
            new StoredWindows<>(
                view,
                topic,
                true,
                handle.store().fetch(lower, null, Math.max(segmentFrom, earliest), latest));
      }
      return segmentFrom ->
          store.fetch(fromKey, null, Instant.ofEpochMilli(Math.max(segmentFrom, earliest)), to);
    } catch (InvalidStateStoreException ex) {
      throw this.refusals.unavailable(view, null, partition, ex.getMessage());
    }
  }

  /**
   * One partition of a time-windowed view's store, through the store API, which reads through the
   * record cache. Only a running active replica answers unless {@code runningActive} is false.
   */
  private <K> ReadOnlyWindowStore<K, Object> windowStore(
      ResolvedView<K, ?, ?> view, @Nullable Object key, int partition, boolean runningActive) {
    return this.refusals
        .running(view, key, partition)
        .store(
            serving(
                StoreQueryParameters.fromNameAndType(
                        view.storeName(), QueryableStoreTypes.<K, Object>windowStore())
                    .withPartition(partition),
                runningActive));
  }

  /**
   * One partition of a session view's store, through the store API, which reads through the record
   * cache. Only a running active replica answers unless {@code runningActive} is false.
   */
  private <K> ReadOnlySessionStore<K, Object> sessionStore(
      ResolvedView<K, ?, ?> view, @Nullable Object key, int partition, boolean runningActive) {
    return this.refusals
        .running(view, key, partition)
        .store(
            serving(
                StoreQueryParameters.fromNameAndType(
                        view.storeName(), QueryableStoreTypes.<K, Object>sessionStore())
                    .withPartition(partition),
                runningActive));
  }

  /** {@code parameters}, which also reach a standby or restoring replica unless {@code active}. */
  private static <T> StoreQueryParameters<T> serving(
      StoreQueryParameters<T> parameters, boolean active) {
    return active ? parameters : parameters.enableStaleStores();
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

  /** Whether a window that starts at {@code start} lies in the range [from, to] asked. */
  static boolean startsIn(Instant start, Instant from, Instant to) {
    return !start.isBefore(from) && !start.isAfter(to);
  }

  private <R> R query(
      ResolvedView<?, ?, ?> view,
      @Nullable Object key,
      int partition,
      Query<R> query,
      boolean runningActive) {
    KafkaStreams kafkaStreams = this.refusals.running(view, key, partition);
    StateQueryResult<R> result;
    try {
      result =
          kafkaStreams.query(
              runningActive
                  ? StateQueryRequest.inStore(view.storeName())
                      .withQuery(query)
                      .withPartitions(Set.of(partition))
                      .requireActive()
                  : StateQueryRequest.inStore(view.storeName())
                      .withQuery(query)
                      .withPartitions(Set.of(partition)));
    } catch (InvalidStateStoreException ex) {
      throw this.refusals.unavailable(view, key, partition, ex.getMessage());
    }
    QueryResult<R> partitionResult = result.getPartitionResults().get(partition);
    if (partitionResult == null) {
      throw this.refusals.unavailable(view, key, partition, "this instance does not host it");
    }
    if (partitionResult.isFailure()) {
      throw this.refusals.unavailable(
          view, key, partition, failureReason(view.name(), partition, partitionResult));
    }
    return partitionResult.getResult();
  }

  /**
   * A short, true reason for a failed store query. Kafka Streams' failure message can hold a whole
   * stack trace, so it is logged here, at WARN when the store itself failed, and never sent to the
   * caller.
   */
  static String failureReason(String view, int partition, QueryResult<?> result) {
    FailureReason failure = result.getFailureReason();
    String message = "Query of partition " + partition + " of view '" + view + "' failed: ";
    if (failure == FailureReason.STORE_EXCEPTION) {
      logger.warn(message + failure + ": " + result.getFailureMessage());
    } else if (logger.isDebugEnabled()) {
      logger.debug(message + failure + ": " + result.getFailureMessage());
    }
    return switch (failure) {
      case NOT_ACTIVE -> "its replica here is still restoring or being assigned";
      case NOT_UP_TO_BOUND -> "its replica here has not yet caught up";
      case NOT_PRESENT -> "this instance does not host it";
      case DOES_NOT_EXIST -> "its store does not exist here";
      case UNKNOWN_QUERY_TYPE -> "its store cannot answer this kind of query";
      case STORE_EXCEPTION ->
          "its store failed the query (" + failure + ", logged by this instance)";
    };
  }
}
