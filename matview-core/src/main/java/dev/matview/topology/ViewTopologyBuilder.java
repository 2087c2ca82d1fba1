package dev.matview.topology;

import dev.matview.replica.StoreHandles;
import dev.matview.replica.StorePositions;
import dev.matview.view.Aggregation;
import dev.matview.view.MergeableAggregation;
import dev.matview.view.ViewDefinition;
import dev.matview.view.ViewWindow;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Aggregator;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Initializer;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Merger;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.state.Stores;
import org.jspecify.annotations.Nullable;

/**
 * Adds every view of a registry to a {@link StreamsBuilder}: one source per topic, then per view
 * decoding (value, null checks and event time bounds, before anything reaches an internal topic),
 * grouping (repartitioning when re-keyed), for time windows a {@link LateRecordGate} just before
 * the aggregation and for session windows a {@link SessionLateRecordGate} just after it, optional
 * windowing and an aggregation materialized in a RocksDB store named after the view, which refuses
 * an aggregate too large for its changelog topic before it keeps it ({@link ChangelogSizeGuard}).
 *
 * <p>The stores of table and time-windowed views have Kafka's record cache, which folds a key's or
 * window's updates between two commits into one write of RocksDB and the changelog; Matview's reads
 * see what it holds ({@link TableAggregateProcessor}, {@link WindowAggregateProcessor}). Session
 * stores have none: Kafka's session aggregation merges and removes sessions in the store, tells no
 * one of an update before the cache keeps it, and change streams need each one.
 */
public final class ViewTopologyBuilder {

  private final Map<String, KStream<?, byte[]>> sources = new HashMap<>();

  private final StreamsBuilder builder;

  private final RecordRules rules;

  private final StoreHandles handles;

  /** A topology builder that adds to {@code builder}, with the standard record rules. */
  public ViewTopologyBuilder(StreamsBuilder builder) {
    this(builder, RecordRules.STANDARD);
  }

  /**
   * A topology builder that adds to {@code builder} and treats unusable records by {@code rules}.
   */
  public ViewTopologyBuilder(StreamsBuilder builder, RecordRules rules) {
    this(builder, rules, new StoreHandles());
  }

  /**
   * A topology builder that adds to {@code builder}, treats unusable records by {@code rules} and
   * makes every view's store through {@code handles}, which hear of each partition Kafka Streams
   * opens and keep handles on the table views' ones.
   */
  public ViewTopologyBuilder(StreamsBuilder builder, RecordRules rules, StoreHandles handles) {
    this.builder = builder;
    this.rules = rules;
    this.handles = handles;
  }

  /** Adds every view of {@code registry}. */
  public void addAll(ViewRegistry registry) {
    registry.all().forEach(this::add);
  }

  /** Adds one view. */
  public <K, V, A> void add(ResolvedView<K, V, A> view) {
    ViewDefinition<K, V, A> definition = view.definition();
    KStream<Object, byte[]> input = source(view);
    if (definition.keySelector() == null) {
      input = tracked(view, input, false);
    }
    KStream<Object, V> decoded =
        input.processValues(
            () ->
                new RecordDecoder<>(
                    view.name(),
                    view.valueSerde().deserializer(),
                    definition.eventTime(),
                    definition.keySelector() == null,
                    this.rules.eventTime(),
                    this.rules.drops()),
            Named.as(ProcessorNames.decoder(view.name())));
    ViewWindow window = definition.window();
    ChangelogSizeGuard guard =
        new ChangelogSizeGuard(view.name(), this.rules.maxChangelogRecordBytes());
    if (window == null) {
      aggregateTable(view, decoded, guard);
    } else if (window.type() != ViewWindow.Type.SESSION) {
      TimeWindows windows =
          TimeWindows.ofSizeAndGrace(window.size(), window.grace()).advanceBy(window.advance());
      aggregateWindows(view, decoded, windows, guard);
    } else {
      aggregateSessions(view, decoded, window, guard);
    }
  }

  /**
   * Folds a session view's records into its store through Kafka's record cache ({@link
   * SessionAggregateProcessor}), which forwards the records it leaves out as late to a {@link
   * SessionLateRecordGate}.
   */
  private <K, V, A> void aggregateSessions(
      ResolvedView<K, V, A> view,
      KStream<Object, V> decoded,
      ViewWindow window,
      ChangelogSizeGuard guard) {
    SessionWindows sessions = SessionWindows.ofInactivityGapAndGrace(window.size(), window.grace());
    this.builder.addStateStore(
        Stores.sessionStoreBuilder(
                this.handles.sessionStore(view.storeName(), window.effectiveRetention(), guard),
                view.keySerde(),
                SerializedAggregate.storeSerde(view.aggregateSerde()))
            .withCachingEnabled());
    Aggregation<? super K, ? super V, A> aggregation = view.definition().aggregation();
    keyed(view, decoded)
        .process(
            () ->
                new SessionAggregateProcessor<>(
                    view,
                    sessions,
                    initializer(aggregation),
                    aggregator(aggregation),
                    merger(aggregation),
                    new AggregateUpdates<>(view, guard),
                    this.handles),
            Named.as(ProcessorNames.aggregator(view.name())),
            view.storeName())
        .process(
            () -> new SessionLateRecordGate<K>(view.name(), sessions, this.rules),
            Named.as(ProcessorNames.lateGate(view.name())));
  }

  /**
   * Folds a table view's records into its store through Kafka's record cache ({@link
   * TableAggregateProcessor}).
   */
  private <K, V, A> void aggregateTable(
      ResolvedView<K, V, A> view, KStream<Object, V> decoded, ChangelogSizeGuard guard) {
    this.builder.addStateStore(
        Stores.timestampedKeyValueStoreBuilder(
                this.handles.keyValueStore(view.storeName(), guard),
                view.keySerde(),
                SerializedAggregate.storeSerde(view.aggregateSerde()))
            .withCachingEnabled());
    Aggregation<? super K, ? super V, A> aggregation = view.definition().aggregation();
    keyed(view, decoded)
        .process(
            () ->
                new TableAggregateProcessor<>(
                    view,
                    initializer(aggregation),
                    aggregator(aggregation),
                    new AggregateUpdates<>(view, guard),
                    this.handles),
            Named.as(ProcessorNames.aggregator(view.name())),
            view.storeName());
  }

  /**
   * Folds a time-windowed view's records into its store through Kafka's record cache ({@link
   * WindowAggregateProcessor}), behind a {@link LateRecordGate}: after the repartition topic when
   * the view is re-keyed, so the gate sees the records the aggregation sees.
   */
  private <K, V, A> void aggregateWindows(
      ResolvedView<K, V, A> view,
      KStream<Object, V> decoded,
      TimeWindows windows,
      ChangelogSizeGuard guard) {
    ViewWindow window = Objects.requireNonNull(view.window());
    this.builder.addStateStore(
        Stores.timestampedWindowStoreBuilder(
                this.handles.windowStore(
                    view.storeName(), window.effectiveRetention(), window.size(), guard),
                view.keySerde(),
                SerializedAggregate.storeSerde(view.aggregateSerde()))
            .withCachingEnabled());
    Aggregation<? super K, ? super V, A> aggregation = view.definition().aggregation();
    keyed(view, decoded)
        .processValues(
            () -> new LateRecordGate<K, V>(view.name(), windows, this.rules),
            Named.as(ProcessorNames.lateGate(view.name())))
        .process(
            () ->
                new WindowAggregateProcessor<>(
                    view,
                    windows,
                    initializer(aggregation),
                    aggregator(aggregation),
                    new AggregateUpdates<>(view, guard),
                    this.handles),
            Named.as(ProcessorNames.aggregator(view.name())),
            view.storeName());
  }

  @SuppressWarnings("unchecked")
  private KStream<Object, byte[]> source(ResolvedView<?, ?, ?> view) {
    return (KStream<Object, byte[]>)
        this.sources.computeIfAbsent(
            view.sourceTopic(),
            topic ->
                this.builder.stream(
                    topic,
                    Consumed.with((Serde<Object>) view.sourceKeySerde(), Serdes.ByteArray())
                        .withName(ProcessorNames.source(topic))));
  }

  /**
   * A view's records with the view's key: the source records themselves, or re-keyed through the
   * repartition topic.
   */
  @SuppressWarnings("unchecked")
  private <K, V, A> KStream<K, V> keyed(ResolvedView<K, V, A> view, KStream<Object, V> decoded) {
    Function<? super V, ? extends @Nullable K> keySelector = view.definition().keySelector();
    if (keySelector == null) {
      return (KStream<K, V>) (KStream<?, V>) decoded;
    }
    return tracked(view, rekeyed(view, decoded, keySelector), true);
  }

  /**
   * {@code records} with the view's key, through a repartition topic named as {@code groupBy} would
   * name it.
   */
  private static <K, V, A> KStream<K, V> rekeyed(
      ResolvedView<K, V, A> view,
      KStream<Object, V> records,
      Function<? super V, ? extends @Nullable K> keySelector) {
    String name = view.name();
    return records
        .<K>selectKey(
            (key, value) -> groupKey(name, keySelector, value),
            Named.as(ProcessorNames.keySelector(name)))
        .processValues(InputOffsetStamp<K, V>::new, Named.as(ProcessorNames.inputStamp(name)))
        .repartition(
            Repartitioned.<K, V>as(name)
                .withKeySerde(view.keySerde())
                .withValueSerde(view.valueSerde()));
  }

  /**
   * {@code records} of the topic that feeds the view's store, each of which tells the store
   * partition how far it has applied that topic once the view has processed it.
   */
  private <K, V> KStream<K, V> tracked(
      ResolvedView<?, ?, ?> view, KStream<K, V> records, boolean rekeyed) {
    StorePositions positions = this.handles.positions();
    String store = view.storeName();
    return records.processValues(
        () -> new AppliedOffsetTracker<K, V>(positions, store, rekeyed),
        Named.as(ProcessorNames.appliedOffsets(view.name())));
  }

  private static <K, V> K groupKey(
      String view, Function<? super V, ? extends @Nullable K> keySelector, V value) {
    K groupKey = keySelector.apply(value);
    if (groupKey == null) {
      throw RecordDecodingException.nullKey(view, true);
    }
    return groupKey;
  }

  private static <K, V, A> Initializer<A> initializer(Aggregation<? super K, ? super V, A> agg) {
    return agg::initial;
  }

  private static <K, V, A> Aggregator<K, V, A> aggregator(
      Aggregation<? super K, ? super V, A> aggregation) {
    return aggregation::add;
  }

  @SuppressWarnings("unchecked")
  private static <K, V, A> Merger<K, A> merger(Aggregation<? super K, ? super V, A> aggregation) {
    MergeableAggregation<? super K, ? super V, A> mergeable =
        (MergeableAggregation<? super K, ? super V, A>) aggregation;
    return mergeable::merge;
  }
}
