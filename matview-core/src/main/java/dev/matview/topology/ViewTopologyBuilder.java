package dev.matview.topology;

import dev.matview.replica.StoreHandles;
import dev.matview.view.ViewWindow;
import java.util.Objects;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.state.Stores;

/**
 * Adds every view of a registry to a {@link StreamsBuilder}: its records ({@link ViewRecords}: one
 * source per topic, decoding, grouping), for time windows a {@link LateRecordGate} just before the
 * aggregation and for session windows a {@link SessionLateRecordGate} just after it, optional
 * windowing and an aggregation ({@link StoreAggregation}) materialized in a RocksDB store named
 * after the view, which refuses an aggregate too large for its changelog topic before it keeps it
 * ({@link ChangelogSizeGuard}).
 *
 * <p>The stores of table and time-windowed views have Kafka's record cache, which folds a key's or
 * window's updates between two commits into one write of RocksDB and the changelog; Matview's reads
 * see what it holds ({@link TableAggregateProcessor}, {@link WindowAggregateProcessor}). Session
 * stores have none: Kafka's session aggregation merges and removes sessions in the store, tells no
 * one of an update before the cache keeps it, and change streams need each one.
 */
public final class ViewTopologyBuilder {

  private final StreamsBuilder builder;

  private final RecordRules rules;

  private final StoreHandles handles;

  private final ViewRecords records;

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
    this.records = new ViewRecords(builder, rules, handles.positions());
  }

  /** Adds every view of {@code registry}. */
  public void addAll(ViewRegistry registry) {
    registry.all().forEach(this::add);
  }

  /** Adds one view. */
  public <K, V, A> void add(ResolvedView<K, V, A> view) {
    KStream<K, V> keyed = this.records.keyed(view);
    ViewWindow window = view.definition().window();
    ChangelogSizeGuard guard =
        new ChangelogSizeGuard(view.name(), this.rules.maxChangelogRecordBytes());
    if (window == null) {
      aggregateTable(view, keyed, guard);
    } else if (window.type() != ViewWindow.Type.SESSION) {
      TimeWindows windows =
          TimeWindows.ofSizeAndGrace(window.size(), window.grace()).advanceBy(window.advance());
      aggregateWindows(view, keyed, windows, guard);
    } else {
      aggregateSessions(view, keyed, window, guard);
    }
  }

  /**
   * Folds a session view's records into its store through Kafka's record cache ({@link
   * SessionAggregateProcessor}), which forwards the records it leaves out as late to a {@link
   * SessionLateRecordGate}.
   */
  private <K, V, A> void aggregateSessions(
      ResolvedView<K, V, A> view,
      KStream<K, V> keyed,
      ViewWindow window,
      ChangelogSizeGuard guard) {
    SessionWindows sessions = SessionWindows.ofInactivityGapAndGrace(window.size(), window.grace());
    this.builder.addStateStore(
        Stores.sessionStoreBuilder(
                this.handles.sessionStore(view.storeName(), window.effectiveRetention(), guard),
                view.keySerde(),
                SerializedAggregate.storeSerde(view.aggregateSerde()))
            .withCachingEnabled());
    keyed
        .process(
            () -> new SessionAggregateProcessor<>(aggregation(view, guard), sessions),
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
      ResolvedView<K, V, A> view, KStream<K, V> keyed, ChangelogSizeGuard guard) {
    this.builder.addStateStore(
        Stores.timestampedKeyValueStoreBuilder(
                this.handles.keyValueStore(view.storeName(), guard),
                view.keySerde(),
                SerializedAggregate.storeSerde(view.aggregateSerde()))
            .withCachingEnabled());
    keyed.process(
        () -> new TableAggregateProcessor<>(aggregation(view, guard)),
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
      KStream<K, V> keyed,
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
    keyed
        .processValues(
            () -> new LateRecordGate<K, V>(view.name(), windows, this.rules),
            Named.as(ProcessorNames.lateGate(view.name())))
        .process(
            () -> new WindowAggregateProcessor<>(aggregation(view, guard), windows),
            Named.as(ProcessorNames.aggregator(view.name())),
            view.storeName());
  }

  /** The aggregation of one task's partition of {@code view}'s store. */
  private <K, V, A> StoreAggregation<K, V, A> aggregation(
      ResolvedView<K, V, A> view, ChangelogSizeGuard guard) {
    return new StoreAggregation<>(view, guard, this.handles);
  }
}
