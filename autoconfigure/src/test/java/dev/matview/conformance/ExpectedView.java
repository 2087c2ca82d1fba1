package dev.matview.conformance;

import dev.matview.conformance.ConformanceApp.Event;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * What one view must answer for a {@link DataSet}, computed in plain Java by Kafka Streams' rules,
 * not by Matview: per partition, in publishing order, with stream time the largest event time seen
 * so far in that partition.
 *
 * <ul>
 *   <li>Tables fold every record of a key.
 *   <li>Time windows are [start, start + size) with starts at multiples of the advance; a record
 *       counts in a window only if the window's end plus grace is after stream time.
 *   <li>Sessions join every session of the key that ends at most the gap before the record or
 *       starts at most the gap after it (oldest end first: the initial aggregate merged with each,
 *       then the record added); the record is late, and left out, when the merged session ends
 *       before stream time minus grace minus gap.
 * </ul>
 */
final class ExpectedView {

  private final Map<Object, Object> values = new LinkedHashMap<>();

  private final Map<Object, List<Window>> windows = new LinkedHashMap<>();

  private final Map<Object, Integer> partitions = new LinkedHashMap<>();

  private final Stats stats = new Stats();

  private ExpectedView() {}

  static ExpectedView of(ViewKind view, DataSet data) {
    ExpectedView expected = new ExpectedView();
    for (int p = 0; p < DataSet.PARTITIONS; p++) {
      List<Event> records = data.records(view.topic(), p);
      switch (view.window().type()) {
        case NONE -> expected.table(view, records, p);
        case TUMBLING, HOPPING -> expected.timeWindows(view, records, p);
        case SESSION -> expected.sessions(view, records, p);
      }
    }
    return expected;
  }

  /** Every key's value (tables). */
  Map<Object, Object> values() {
    return this.values;
  }

  /** Every key's windows, oldest first (windowed and session views). */
  Map<Object, List<Window>> windows() {
    return this.windows;
  }

  /** Every key of the view. */
  List<Object> keys() {
    return List.copyOf(this.partitions.keySet());
  }

  /** The partition of the view's store that holds {@code key}. */
  int partition(Object key) {
    return Objects.requireNonNull(this.partitions.get(key), () -> "no key " + key);
  }

  /** What happened to the records on the way. */
  Stats stats() {
    return this.stats;
  }

  /** Every window of every key whose start lies in [from, to]. */
  List<Window> windowsBetween(Instant from, Instant to) {
    return this.windows.values().stream()
        .flatMap(List::stream)
        .filter(window -> !window.start().isBefore(from) && !window.start().isAfter(to))
        .toList();
  }

  private Object key(ViewKind view, Event event, int p) {
    Object key = DataSet.field(view.keyKind(), event);
    if (view.keyKind().partition(key, DataSet.PARTITIONS) != p) {
      throw new IllegalStateException(
          "The data set put key " + key + " in partition " + p + ", not where it belongs");
    }
    this.partitions.put(key, p);
    return key;
  }

  private void table(ViewKind view, List<Event> records, int p) {
    for (Event event : records) {
      Object key = key(view, event, p);
      Object value = view.fold().add(this.values.getOrDefault(key, view.fold().initial()), event);
      this.values.put(key, value);
    }
  }

  private void timeWindows(ViewKind view, List<Event> records, int p) {
    long size = view.window().size().toMillis();
    long advance = view.window().advance().toMillis();
    long grace = view.window().grace().toMillis();
    Map<Object, TreeMap<Long, @Nullable Object>> aggregates = new LinkedHashMap<>();
    long streamTime = Long.MIN_VALUE;
    for (Event event : records) {
      Object key = key(view, event, p);
      long time = event.at().toEpochMilli();
      boolean outOfOrder = time < streamTime;
      streamTime = Math.max(streamTime, time);
      int open = 0;
      int closed = 0;
      for (long start = Math.floorDiv(time, advance) * advance;
          start > time - size;
          start -= advance) {
        if (start + size + grace > streamTime) {
          TreeMap<Long, @Nullable Object> ofKey =
              aggregates.computeIfAbsent(key, k -> new TreeMap<>());
          ofKey.put(
              start, view.fold().add(ofKey.getOrDefault(start, view.fold().initial()), event));
          open++;
        } else {
          closed++;
        }
      }
      this.stats.count(outOfOrder, open, closed);
    }
    aggregates.forEach(
        (key, ofKey) -> {
          List<Window> list = this.windows.computeIfAbsent(key, k -> new ArrayList<>());
          ofKey.forEach(
              (start, value) ->
                  list.add(
                      new Window(
                          key,
                          Instant.ofEpochMilli(start),
                          Instant.ofEpochMilli(start + size),
                          Objects.requireNonNull(value))));
          list.sort(Comparator.comparing(Window::start));
        });
  }

  private void sessions(ViewKind view, List<Event> records, int p) {
    long gap = view.window().size().toMillis();
    long grace = view.window().grace().toMillis();
    Map<Object, List<Session>> sessions = new LinkedHashMap<>();
    long streamTime = Long.MIN_VALUE;
    for (Event event : records) {
      Object key = key(view, event, p);
      long time = event.at().toEpochMilli();
      boolean outOfOrder = time < streamTime;
      streamTime = Math.max(streamTime, time);
      long closeTime = streamTime - gap - grace;
      List<Session> ofKey = sessions.computeIfAbsent(key, k -> new ArrayList<>());
      List<Session> joined =
          ofKey.stream()
              .filter(session -> session.end() >= time - gap && session.start() <= time + gap)
              .sorted(Comparator.comparingLong(Session::end))
              .toList();
      long start = time;
      long end = time;
      for (Session session : joined) {
        start = Math.min(start, session.start());
        end = Math.max(end, session.end());
      }
      if (end < closeTime) {
        this.stats.count(outOfOrder, 0, 1);
        continue;
      }
      if (time < closeTime) {
        this.stats.keptByAnOpenSession++;
      }
      Object aggregate = view.fold().initial();
      for (Session session : joined) {
        aggregate = view.fold().merge(aggregate, session.value());
      }
      aggregate = view.fold().add(aggregate, event);
      ofKey.removeAll(joined);
      ofKey.add(new Session(start, end, Objects.requireNonNull(aggregate)));
      this.stats.count(outOfOrder, 1, 0);
      if (joined.size() > 1) {
        this.stats.bridges++;
      }
    }
    sessions.forEach(
        (key, ofKey) ->
            this.windows.put(
                key,
                ofKey.stream()
                    .sorted(Comparator.comparingLong(Session::start))
                    .map(
                        session ->
                            new Window(
                                key,
                                Instant.ofEpochMilli(session.start()),
                                Instant.ofEpochMilli(session.end()),
                                session.value()))
                    .toList()));
  }

  /** One window of one key and its value. */
  record Window(Object key, Instant start, Instant end, Object value) {}

  private record Session(long start, long end, Object value) {}

  /** What happened to a windowed view's records. */
  static final class Stats {

    /** Records before stream time that still counted in all their windows. */
    int outOfOrderCounted;

    /** Records that counted in no window: dead letters with reason {@code late}. */
    int late;

    /** Records that counted in some of their (hopping) windows and not in others. */
    int partlyLate;

    /** Records that joined two or more sessions into one. */
    int bridges;

    /**
     * Records whose own time lies before stream time minus grace and gap, kept because they joined
     * a session that ends after it.
     */
    int keptByAnOpenSession;

    private void count(boolean outOfOrder, int open, int closed) {
      if (open == 0) {
        this.late++;
      } else if (closed > 0) {
        this.partlyLate++;
      } else if (outOfOrder) {
        this.outOfOrderCounted++;
      }
    }

    @Override
    public String toString() {
      return "outOfOrderCounted="
          + this.outOfOrderCounted
          + ", late="
          + this.late
          + ", partlyLate="
          + this.partlyLate
          + ", bridges="
          + this.bridges
          + ", keptByAnOpenSession="
          + this.keptByAnOpenSession;
    }
  }
}
