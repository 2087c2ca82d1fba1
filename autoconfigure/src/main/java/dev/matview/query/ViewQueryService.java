package dev.matview.query;

import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.view.ViewWindow;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.query.WindowKeyQuery;
import org.apache.kafka.streams.query.WindowRangeQuery;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.jspecify.annotations.Nullable;

/**
 * Answers key and window lookups of views from this instance's stores through Kafka Streams
 * interactive queries, querying only the partition that holds the key.
 */
public final class ViewQueryService {

  private static final Duration REBALANCE_RETRY = Duration.ofSeconds(1);

  private final ViewRegistry registry;

  private final Supplier<@Nullable KafkaStreams> streams;

  private final LocalInstance localInstance;

  private final KeyParser keyParser;

  private final Clock clock;

  /** A service that queries the views of {@code registry} in the running {@code streams}. */
  public ViewQueryService(
      ViewRegistry registry,
      Supplier<@Nullable KafkaStreams> streams,
      LocalInstance localInstance,
      KeyParser keyParser,
      Clock clock) {
    this.registry = registry;
    this.streams = streams;
    this.localInstance = localInstance;
    this.keyParser = keyParser;
    this.clock = clock;
  }

  /** Every view, in declaration order. */
  public Collection<ResolvedView<?, ?, ?>> views() {
    return this.registry.all();
  }

  /** The Kafka Streams application id that names the views' topics. */
  public String applicationId() {
    return this.registry.applicationId();
  }

  /** The view named {@code name}. */
  public ResolvedView<?, ?, ?> view(String name) {
    return this.registry.find(name).orElseThrow(() -> new UnknownViewException(name));
  }

  /** The current value of {@code rawKey} in a table view, or a null value when it has none. */
  public KeyAnswer get(String viewName, String rawKey) {
    ResolvedView<?, ?, ?> view = view(viewName);
    if (view.window() != null) {
      throw new InvalidQueryException(
          viewName,
          "key",
          "View '"
              + viewName
              + "' is "
              + view.kind().label()
              + "; ask for a key's windows at .../keys/{key}/windows");
    }
    return getFrom(view, rawKey);
  }

  private <K> KeyAnswer getFrom(ResolvedView<K, ?, ?> view, String rawKey) {
    Located<K> at = locate(view, rawKey);
    Object value = single(at, view, KeyQuery.<K, Object>withKey(at.key()));
    return new KeyAnswer(at.key(), value, activeReplica());
  }

  /** The windows of {@code rawKey} whose start lies in [from, to], by default the retention. */
  public WindowsAnswer windows(
      String viewName, String rawKey, @Nullable Instant from, @Nullable Instant to) {
    ResolvedView<?, ?, ?> view = view(viewName);
    ViewWindow window = view.window();
    if (window == null) {
      throw new InvalidQueryException(
          viewName,
          "view",
          "View '" + viewName + "' is a table without windows; ask for its key at .../keys/{key}");
    }
    Instant end = to != null ? to : this.clock.instant();
    Instant start = from != null ? from : end.minus(window.effectiveRetention());
    if (start.isAfter(end)) {
      throw new InvalidQueryException(
          viewName, "from", "'from' (" + start + ") must not be after 'to' (" + end + ")");
    }
    return windowsFrom(view, window, rawKey, start, end);
  }

  private <K> WindowsAnswer windowsFrom(
      ResolvedView<K, ?, ?> view, ViewWindow window, String rawKey, Instant from, Instant to) {
    Located<K> at = locate(view, rawKey);
    List<WindowValue> windows =
        window.type() == ViewWindow.Type.SESSION
            ? sessions(at, view, from, to)
            : timeWindows(at, view, window, from, to);
    return new WindowsAnswer(at.key(), windows, activeReplica());
  }

  private <K> List<WindowValue> timeWindows(
      Located<K> at, ResolvedView<K, ?, ?> view, ViewWindow window, Instant from, Instant to) {
    WindowKeyQuery<K, ValueAndTimestamp<Object>> query =
        WindowKeyQuery.withKeyAndWindowStartRange(at.key(), from, to);
    List<WindowValue> windows = new ArrayList<>();
    try (WindowStoreIterator<ValueAndTimestamp<Object>> iterator = single(at, view, query)) {
      while (iterator.hasNext()) {
        KeyValue<Long, ValueAndTimestamp<Object>> next = iterator.next();
        Instant start = Instant.ofEpochMilli(next.key);
        if (next.value != null && next.value.value() != null) {
          windows.add(new WindowValue(start, start.plus(window.size()), next.value.value()));
        }
      }
    }
    return windows;
  }

  private <K> List<WindowValue> sessions(
      Located<K> at, ResolvedView<K, ?, ?> view, Instant from, Instant to) {
    WindowRangeQuery<K, Object> query = WindowRangeQuery.withKey(at.key());
    List<WindowValue> windows = new ArrayList<>();
    try (KeyValueIterator<Windowed<K>, Object> iterator = single(at, view, query)) {
      while (iterator.hasNext()) {
        KeyValue<Windowed<K>, Object> next = iterator.next();
        Instant start = next.key.window().startTime();
        if (next.value != null && !start.isBefore(from) && !start.isAfter(to)) {
          windows.add(new WindowValue(start, next.key.window().endTime(), next.value));
        }
      }
    }
    return windows;
  }

  private <K> Located<K> locate(ResolvedView<K, ?, ?> view, String rawKey) {
    K key = parseKey(view, rawKey);
    KafkaStreams kafkaStreams = runningStreams(view, key);
    KeyQueryMetadata metadata = metadataOf(kafkaStreams, view, key);
    return new Located<>(key, kafkaStreams, metadata.partition(), metadata.activeHost());
  }

  private <K> K parseKey(ResolvedView<K, ?, ?> view, String rawKey) {
    try {
      return this.keyParser.parse(view.definition().keyType(), rawKey);
    } catch (IllegalArgumentException ex) {
      throw new InvalidQueryException(
          view.name(), "key", "Key " + ex.getMessage() + " as view '" + view.name() + "' needs");
    }
  }

  private KafkaStreams runningStreams(ResolvedView<?, ?, ?> view, Object key) {
    KafkaStreams kafkaStreams = this.streams.get();
    if (kafkaStreams == null || !kafkaStreams.state().isRunningOrRebalancing()) {
      throw new ViewUnavailableException(
          view.name(),
          key,
          null,
          "Kafka Streams is "
              + (kafkaStreams != null ? kafkaStreams.state() : "not started")
              + "; view '"
              + view.name()
              + "' cannot be queried until it is running",
          REBALANCE_RETRY);
    }
    return kafkaStreams;
  }

  @SuppressWarnings("unchecked")
  private <K> KeyQueryMetadata metadataOf(
      KafkaStreams kafkaStreams, ResolvedView<K, ?, ?> view, K key) {
    KeyQueryMetadata metadata =
        kafkaStreams.queryMetadataForKey(
            view.storeName(), key, (Serializer<K>) view.keySerde().serializer());
    if (metadata == null || metadata.equals(KeyQueryMetadata.NOT_AVAILABLE)) {
      throw new ViewUnavailableException(
          view.name(),
          key,
          null,
          "The partition of this key is not known while the instances rebalance",
          REBALANCE_RETRY);
    }
    return metadata;
  }

  private <R> R single(Located<?> at, ResolvedView<?, ?, ?> view, Query<R> query) {
    Object key = at.key();
    int partition = at.partition();
    StateQueryResult<R> result;
    try {
      result =
          at.streams()
              .query(
                  StateQueryRequest.inStore(view.storeName())
                      .withQuery(query)
                      .withPartitions(Set.of(partition)));
    } catch (InvalidStateStoreException ex) {
      throw unavailable(view, key, partition, ex.getMessage());
    }
    QueryResult<R> partitionResult = result.getPartitionResults().get(partition);
    if (partitionResult == null) {
      throw unavailable(
          view,
          key,
          partition,
          "this instance does not host it; its active replica is on "
              + at.activeHost().host()
              + ":"
              + at.activeHost().port());
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

  private ViewUnavailableException unavailable(
      ResolvedView<?, ?, ?> view, Object key, int partition, @Nullable String reason) {
    return new ViewUnavailableException(
        view.name(),
        key,
        partition,
        "Partition " + partition + " of view '" + view.name() + "' cannot answer now: " + reason,
        REBALANCE_RETRY);
  }

  private Replica activeReplica() {
    return new Replica(this.localInstance.describe(), Replica.Role.ACTIVE, 0);
  }

  /**
   * A parsed key, the running Kafka Streams to ask and the partition that holds the key.
   *
   * @param key the key
   * @param streams the running Kafka Streams
   * @param partition the key's partition
   * @param activeHost the instance that holds the partition's active replica
   */
  private record Located<K>(K key, KafkaStreams streams, int partition, HostInfo activeHost) {}
}
