package dev.matview.test;

import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewWindow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.jspecify.annotations.Nullable;

/**
 * Reads one view of a {@link ViewTestDriver} from its store: a key's value, a scan, a key's
 * windows, and the view's dead letters.
 *
 * @param <K> the view's key type
 * @param <A> the view's value type
 */
public final class TestView<K, A> {

  /** The latest window start Kafka can store. */
  private static final Instant LATEST = Instant.ofEpochMilli(Long.MAX_VALUE);

  private final ViewTestDriver owner;

  private final ResolvedView<?, ?, ?> view;

  TestView(ViewTestDriver owner, ResolvedView<?, ?, ?> view) {
    this.owner = owner;
    this.view = view;
  }

  /** The view's name. */
  public String name() {
    return this.view.name();
  }

  /** The current value of {@code key} in this table view, or {@code null} when it has none. */
  public @Nullable A get(K key) {
    Objects.requireNonNull(key, "key must not be null");
    ViewChecks.requireTable(this.view, "read the key's windows with windows(key)");
    return ValueAndTimestamp.getValueOrNull(keyValueStore().get(key));
  }

  /** Every key of this table view and its value, in the store's order of serialized keys. */
  public Map<K, A> scan() {
    return scan(null, null);
  }

  /**
   * The keys of this table view from {@code from} to {@code to}, both included (a null bound leaves
   * that end open), and their values, in the store's order of serialized keys.
   */
  public Map<K, A> scan(@Nullable K from, @Nullable K to) {
    ViewChecks.requireTable(this.view, "read each key's windows with windows(key)");
    Map<K, A> found = new LinkedHashMap<>();
    try (KeyValueIterator<K, ValueAndTimestamp<A>> entries = keyValueStore().range(from, to)) {
      entries.forEachRemaining(entry -> found.put(entry.key, entry.value.value()));
    }
    return Collections.unmodifiableMap(found);
  }

  /** Every window of {@code key} in this windowed or session view, oldest first. */
  public List<WindowedValue<A>> windows(K key) {
    return windows(key, Instant.EPOCH, LATEST);
  }

  /**
   * The windows of {@code key} in this windowed or session view whose start lies in [from, to],
   * oldest first.
   */
  public List<WindowedValue<A>> windows(K key, Instant from, Instant to) {
    Objects.requireNonNull(key, "key must not be null");
    if (from.isAfter(to)) {
      throw new IllegalArgumentException(
          "'from' (" + from + ") must not be after 'to' (" + to + ")");
    }
    ViewChecks.requireWindows(this.view, "read the key's value with get(key)");
    ViewWindow window = Objects.requireNonNull(this.view.window());
    return (window.type() == ViewWindow.Type.SESSION)
        ? sessions(key, from, to)
        : timeWindows(key, window, from, to);
  }

  /** The dead letters of records this view could not use, in the order they were written. */
  public List<DeadLetterRecord> deadLetters() {
    return this.owner.deadLetters().stream()
        .filter(letter -> name().equals(letter.view()))
        .toList();
  }

  private List<WindowedValue<A>> timeWindows(K key, ViewWindow window, Instant from, Instant to) {
    WindowStore<K, ValueAndTimestamp<A>> store = driver().getTimestampedWindowStore(name());
    List<WindowedValue<A>> windows = new ArrayList<>();
    try (WindowStoreIterator<ValueAndTimestamp<A>> found = store.fetch(key, from, to)) {
      while (found.hasNext()) {
        KeyValue<Long, ValueAndTimestamp<A>> next = found.next();
        Instant start = Instant.ofEpochMilli(next.key);
        windows.add(new WindowedValue<>(start, start.plus(window.size()), next.value.value()));
      }
    }
    return windows;
  }

  private List<WindowedValue<A>> sessions(K key, Instant from, Instant to) {
    SessionStore<K, A> store = driver().getSessionStore(name());
    List<WindowedValue<A>> sessions = new ArrayList<>();
    try (KeyValueIterator<Windowed<K>, A> found = store.fetch(key)) {
      while (found.hasNext()) {
        KeyValue<Windowed<K>, A> next = found.next();
        Instant start = next.key.window().startTime();
        if (!start.isBefore(from) && !start.isAfter(to)) {
          sessions.add(new WindowedValue<>(start, next.key.window().endTime(), next.value));
        }
      }
    }
    return sessions;
  }

  private KeyValueStore<K, ValueAndTimestamp<A>> keyValueStore() {
    return driver().getTimestampedKeyValueStore(name());
  }

  private TopologyTestDriver driver() {
    return this.owner.topologyTestDriver();
  }
}
