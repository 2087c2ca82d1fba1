package dev.matview.query;

import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.query.WindowKeyQuery;
import org.apache.kafka.streams.query.WindowRangeQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlySessionStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.jspecify.annotations.Nullable;

/**
 * Reads one partition of a view's store on this instance: single keys and their windows through
 * IQv2, scans of keys and windows in stored key order.
 */
public final class LocalStores {

  private static final Duration RETRY = Duration.ofSeconds(1);

  private final Supplier<@Nullable KafkaStreams> streams;

  /** Reads the stores of {@code streams}. */
  public LocalStores(Supplier<@Nullable KafkaStreams> streams) {
    this.streams = streams;
  }

  /** The value of {@code key} in {@code partition}, or {@code null}. */
  public <K> @Nullable Object get(ResolvedView<K, ?, ?> view, K key, int partition) {
    return query(view, key, partition, KeyQuery.<K, Object>withKey(key));
  }

  /**
   * The windows of {@code key} in {@code partition} whose start lies in [from, to], oldest first.
   */
  public <K> List<WindowValue> windows(
      ResolvedView<K, ?, ?> view,
      ViewWindow window,
      K key,
      int partition,
      Instant from,
      Instant to) {
    List<WindowValue> windows = new ArrayList<>();
    if (window.type() == ViewWindow.Type.SESSION) {
      WindowRangeQuery<K, Object> query = WindowRangeQuery.withKey(key);
      try (KeyValueIterator<Windowed<K>, Object> sessions = query(view, key, partition, query)) {
        while (sessions.hasNext()) {
          KeyValue<Windowed<K>, Object> next = sessions.next();
          Instant start = next.key.window().startTime();
          if (next.value != null && !start.isBefore(from) && !start.isAfter(to)) {
            windows.add(new WindowValue(start, next.key.window().endTime(), next.value));
          }
        }
      }
      return windows;
    }
    WindowKeyQuery<K, ValueAndTimestamp<Object>> query =
        WindowKeyQuery.withKeyAndWindowStartRange(key, from, to);
    try (WindowStoreIterator<ValueAndTimestamp<Object>> found =
        query(view, key, partition, query)) {
      while (found.hasNext()) {
        KeyValue<Long, ValueAndTimestamp<Object>> next = found.next();
        if (next.value != null && next.value.value() != null) {
          Instant start = Instant.ofEpochMilli(next.key);
          windows.add(new WindowValue(start, start.plus(window.size()), next.value.value()));
        }
      }
    }
    return windows;
  }

  /**
   * Up to {@code limit} keys of {@code partition} in [from, to] that come after {@code after}, in
   * stored key order.
   */
  public <K> Slice<KeyItem> keys(
      ResolvedView<K, ?, ?> view,
      int partition,
      @Nullable K from,
      @Nullable K to,
      @Nullable ScanPosition after,
      int limit) {
    Serde<K> keySerde = view.keySerde();
    K lower =
        after != null ? keySerde.deserializer().deserialize(view.storeName(), after.key()) : from;
    RangeQuery<K, Object> query = RangeQuery.withRange(lower, to);
    List<KeyItem> items = new ArrayList<>();
    ScanPosition last = null;
    try (KeyValueIterator<K, Object> range = query(view, null, partition, query)) {
      while (items.size() < limit && range.hasNext()) {
        KeyValue<K, Object> next = range.next();
        byte[] keyBytes = keySerde.serializer().serialize(view.storeName(), next.key);
        if (next.value == null || (after != null && Arrays.equals(keyBytes, after.key()))) {
          continue;
        }
        items.add(new KeyItem(next.key, next.value));
        last = new ScanPosition(keyBytes, 0);
      }
      return new Slice<>(items, last, !range.hasNext());
    }
  }

  /**
   * Up to {@code limit} windows of {@code partition} whose start lies in [from, to] and that come
   * after {@code after}, ordered by stored key, then window start.
   */
  public <K> Slice<WindowItem> windowItems(
      ResolvedView<K, ?, ?> view,
      ViewWindow window,
      int partition,
      Instant from,
      Instant to,
      @Nullable ScanPosition after,
      int limit) {
    Serde<K> keySerde = view.keySerde();
    K fromKey =
        after != null ? keySerde.deserializer().deserialize(view.storeName(), after.key()) : null;
    Comparator<Positioned> order =
        (left, right) ->
            left.position.compareTo(right.position.key(), right.position.windowStart());
    PriorityQueue<Positioned> smallest = new PriorityQueue<>(order.reversed());
    try (KeyValueIterator<Windowed<K>, Object> found =
        windowIterator(view, window, partition, fromKey, from, to)) {
      while (found.hasNext()) {
        KeyValue<Windowed<K>, Object> next = found.next();
        Instant start = next.key.window().startTime();
        if (next.value == null || start.isBefore(from) || start.isAfter(to)) {
          continue;
        }
        byte[] keyBytes = keySerde.serializer().serialize(view.storeName(), next.key.key());
        ScanPosition position = new ScanPosition(keyBytes, start.toEpochMilli());
        if (after != null && after.compareTo(keyBytes, start.toEpochMilli()) >= 0) {
          continue;
        }
        Instant end =
            window.type() == ViewWindow.Type.SESSION
                ? next.key.window().endTime()
                : start.plus(window.size());
        smallest.add(
            new Positioned(position, new WindowItem(next.key.key(), start, end, next.value)));
        if (smallest.size() > limit + 1) {
          smallest.poll();
        }
      }
    }
    List<Positioned> ordered = new ArrayList<>(smallest);
    ordered.sort(order);
    boolean exhausted = ordered.size() <= limit;
    List<Positioned> page = exhausted ? ordered : ordered.subList(0, limit);
    return new Slice<>(
        page.stream().map(Positioned::item).toList(),
        page.isEmpty() ? null : page.get(page.size() - 1).position(),
        exhausted);
  }

  private <K> KeyValueIterator<Windowed<K>, Object> windowIterator(
      ResolvedView<K, ?, ?> view,
      ViewWindow window,
      int partition,
      @Nullable K fromKey,
      Instant from,
      Instant to) {
    KafkaStreams kafkaStreams = running(view, null, partition);
    try {
      if (window.type() == ViewWindow.Type.SESSION) {
        ReadOnlySessionStore<K, Object> store =
            kafkaStreams.store(
                StoreQueryParameters.fromNameAndType(
                        view.storeName(), QueryableStoreTypes.<K, Object>sessionStore())
                    .withPartition(partition));
        return store.findSessions(fromKey, null, from, to);
      }
      ReadOnlyWindowStore<K, Object> store =
          kafkaStreams.store(
              StoreQueryParameters.fromNameAndType(
                      view.storeName(), QueryableStoreTypes.<K, Object>windowStore())
                  .withPartition(partition));
      return store.fetch(fromKey, null, from, to);
    } catch (InvalidStateStoreException ex) {
      throw unavailable(view, null, partition, ex.getMessage());
    }
  }

  private <R> R query(
      ResolvedView<?, ?, ?> view, @Nullable Object key, int partition, Query<R> query) {
    KafkaStreams kafkaStreams = running(view, key, partition);
    StateQueryResult<R> result;
    try {
      result =
          kafkaStreams.query(
              StateQueryRequest.inStore(view.storeName())
                  .withQuery(query)
                  .withPartitions(Set.of(partition)));
    } catch (InvalidStateStoreException ex) {
      throw unavailable(view, key, partition, ex.getMessage());
    }
    QueryResult<R> partitionResult = result.getPartitionResults().get(partition);
    if (partitionResult == null) {
      throw unavailable(view, key, partition, "this instance does not host it");
    }
    if (partitionResult.isFailure()) {
      throw unavailable(
          view,
          key,
          partition,
          partitionResult.getFailureReason() + ": " + partitionResult.getFailureMessage());
    }
    return partitionResult.getResult();
  }

  private KafkaStreams running(ResolvedView<?, ?, ?> view, @Nullable Object key, int partition) {
    KafkaStreams kafkaStreams = this.streams.get();
    if (kafkaStreams == null || !kafkaStreams.state().isRunningOrRebalancing()) {
      throw unavailable(view, key, partition, "Kafka Streams is not running");
    }
    return kafkaStreams;
  }

  private static ViewUnavailableException unavailable(
      ResolvedView<?, ?, ?> view, @Nullable Object key, int partition, @Nullable String reason) {
    return new ViewUnavailableException(
        view.name(),
        key,
        partition,
        "Partition " + partition + " of view '" + view.name() + "' cannot answer now: " + reason,
        RETRY);
  }

  private record Positioned(ScanPosition position, WindowItem item) {}
}
