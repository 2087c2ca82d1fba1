package dev.matview.query.local;

import dev.matview.query.local.DifferentialViews.Fold;
import dev.matview.query.local.DifferentialViews.Item;
import dev.matview.query.local.DifferentialViews.Kind;
import dev.matview.query.local.DifferentialViews.Tally;
import dev.matview.topology.JsonSerde;
import dev.matview.view.ViewWindow;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Aggregator;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Initializer;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Merger;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * The differential test's reference: the same views written in plain Kafka Streams DSL, each with
 * an in-memory store of its own and its aggregation written anew, run on Kafka Streams' test
 * driver, and what their stores hold, in the form {@link MatviewReads} gives Matview's answers.
 */
final class DslViews {

  private final JsonMapper mapper;

  DslViews(JsonMapper mapper) {
    this.mapper = mapper;
  }

  /** Adds every view to {@code builder}, fed by {@code topic}: keys and JSON values as strings. */
  void addAll(StreamsBuilder builder, String topic) {
    KGroupedStream<String, Item> grouped =
        builder.stream(topic, Consumed.with(Serdes.String(), Serdes.String()))
            .filter((key, value) -> key != null && value != null)
            .mapValues(value -> this.mapper.readValue(value, Item.class))
            .groupByKey(Grouped.with(Serdes.String(), new JsonSerde<>(Item.class, this.mapper)));
    for (Kind kind : Kind.values()) {
      for (Fold fold : Fold.values()) {
        add(grouped, kind, fold);
      }
    }
  }

  private void add(KGroupedStream<String, Item> grouped, Kind kind, Fold fold) {
    switch (fold) {
      case COUNT -> add(grouped, kind, fold, Long.class, () -> 0L, (k, v, a) -> a + 1, Long::sum);
      case SUM ->
          add(grouped, kind, fold, Long.class, () -> 0L, (k, v, a) -> a + v.amount(), Long::sum);
      case MIN -> add(grouped, kind, fold, Long.class, () -> null, extreme(-1), pick(-1));
      case MAX -> add(grouped, kind, fold, Long.class, () -> null, extreme(1), pick(1));
      case LATEST ->
          add(
              grouped,
              kind,
              fold,
              Item.class,
              () -> null,
              (k, v, a) -> v,
              (a, b) -> b != null ? b : a);
      case CUSTOM ->
          add(
              grouped,
              kind,
              fold,
              Tally.class,
              () -> new Tally(0, 0),
              (k, v, a) ->
                  (kind != Kind.SESSION && v.amount() == 0)
                      ? null
                      : new Tally(
                          (a != null ? a.count() : 0) + 1,
                          (a != null ? a.total() : 0) + v.amount()),
              (a, b) ->
                  new Tally(
                      (a != null ? a.count() : 0) + (b != null ? b.count() : 0),
                      (a != null ? a.total() : 0) + (b != null ? b.total() : 0)));
    }
  }

  private static Aggregator<String, Item, Long> extreme(int sign) {
    return (key, value, aggregate) -> pick(sign).merge(aggregate, value.amount());
  }

  private static Merged<Long> pick(int sign) {
    return (current, candidate) -> {
      if (current == null || candidate == null) {
        return current == null ? candidate : current;
      }
      return Long.signum(Long.compare(candidate, current)) == sign ? candidate : current;
    };
  }

  private <A> void add(
      KGroupedStream<String, Item> grouped,
      Kind kind,
      Fold fold,
      Class<A> type,
      Initializer<@Nullable A> initializer,
      Aggregator<String, Item, @Nullable A> aggregator,
      Merged<A> merged) {
    String name = DifferentialViews.name(kind, fold);
    Serde<A> serde = new JsonSerde<>(type, this.mapper);
    ViewWindow window = kind.window();
    if (window == null) {
      grouped.aggregate(
          initializer,
          aggregator,
          Materialized.<String, A>as(Stores.inMemoryKeyValueStore(name))
              .withKeySerde(Serdes.String())
              .withValueSerde(serde));
    } else if (kind == Kind.SESSION) {
      Merger<String, @Nullable A> merger = (key, one, two) -> merged.merge(one, two);
      grouped
          .windowedBy(SessionWindows.ofInactivityGapAndGrace(window.size(), window.grace()))
          .aggregate(
              initializer,
              aggregator,
              merger,
              Materialized.<String, A>as(
                      Stores.inMemorySessionStore(name, window.effectiveRetention()))
                  .withKeySerde(Serdes.String())
                  .withValueSerde(serde));
    } else {
      grouped
          .windowedBy(
              TimeWindows.ofSizeAndGrace(window.size(), window.grace()).advanceBy(window.advance()))
          .aggregate(
              initializer,
              aggregator,
              Materialized.<String, A>as(
                      Stores.inMemoryWindowStore(
                          name, window.effectiveRetention(), window.size(), false))
                  .withKeySerde(Serdes.String())
                  .withValueSerde(serde));
    }
  }

  /**
   * What the store of the view of {@code kind} named {@code name} holds: a table's keys, or the
   * windows (sessions) that start in [from, to], as {@link MatviewReads#entry} names them, each
   * with its value as JSON.
   */
  Map<String, String> held(
      TopologyTestDriver driver, String name, Kind kind, Instant from, Instant to) {
    Map<String, String> held = new TreeMap<>();
    if (kind == Kind.TABLE) {
      KeyValueStore<String, Object> store = driver.getKeyValueStore(name);
      try (KeyValueIterator<String, Object> all = store.all()) {
        all.forEachRemaining(next -> held.put(next.key, json(next.value)));
      }
      return held;
    }
    if (kind == Kind.SESSION) {
      SessionStore<String, Object> store = driver.getSessionStore(name);
      try (KeyValueIterator<Windowed<String>, Object> all =
          store.findSessions(null, null, 0, Long.MAX_VALUE)) {
        collect(all, held, from, to);
      }
      return held;
    }
    WindowStore<String, Object> store = driver.getWindowStore(name);
    try (KeyValueIterator<Windowed<String>, Object> all = store.fetchAll(from, to)) {
      collect(all, held, from, to);
    }
    return held;
  }

  private void collect(
      KeyValueIterator<Windowed<String>, Object> windows,
      Map<String, String> held,
      Instant from,
      Instant to) {
    while (windows.hasNext()) {
      KeyValue<Windowed<String>, Object> next = windows.next();
      Instant start = next.key.window().startTime();
      if (next.value != null && LocalWindows.startsIn(start, from, to)) {
        held.put(
            MatviewReads.entry(next.key.key(), start, next.key.window().endTime()),
            json(next.value));
      }
    }
  }

  private String json(Object value) {
    return this.mapper.writeValueAsString(value);
  }

  /** Two aggregates of one key in one: the later wins where it matters. */
  @FunctionalInterface
  private interface Merged<A> {
    @Nullable A merge(@Nullable A one, @Nullable A two);
  }
}
