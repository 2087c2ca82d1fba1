package dev.matview.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * The check of the change streams of a count view's keys: each value must be one more than the one
 * before it on the same key (no gap, no duplicate, never back), except the first after a start
 * without an id or after a {@code skipped} event, and of the key followed; counts the events, how
 * streams opened and ended, and keeps the first values out of order with the ids and instances of
 * both events.
 */
final class ChangeTally {

  /** The outcome of an attempt to open a stream that got no HTTP answer. */
  static final String NO_CONNECTION = "no connection";

  private static final int KEPT = 20;

  private final Map<String, KeyState> keys = new ConcurrentHashMap<>();

  private final Map<String, LongAdder> opened = new ConcurrentHashMap<>();

  private final Map<String, LongAdder> ended = new ConcurrentHashMap<>();

  private final LongAdder events = new LongAdder();

  private final LongAdder skipped = new LongAdder();

  private final LongAdder freshStarts = new LongAdder();

  private final LongAdder gaps = new LongAdder();

  private final LongAdder duplicates = new LongAdder();

  private final LongAdder wentBack = new LongAdder();

  private final LongAdder otherKeys = new LongAdder();

  private final List<String> examples = new CopyOnWriteArrayList<>();

  /** An attempt to open a stream came to {@code outcome}: a status, or {@link #NO_CONNECTION}. */
  void opened(String outcome) {
    this.opened.computeIfAbsent(outcome, name -> new LongAdder()).increment();
  }

  /** A stream of {@code key} opened without an id: its next value starts the count afresh. */
  void freshStart(String key) {
    this.freshStarts.increment();
    state(key).restart();
  }

  /** A stream of {@code key} said it could not go on after the id it was sent. */
  void skipped(String key) {
    this.events.increment();
    this.skipped.increment();
    state(key).restart();
  }

  /** A stream ended, for {@code why}, and its follower reconnects. */
  void ended(String why) {
    this.ended.computeIfAbsent(why, name -> new LongAdder()).increment();
  }

  /**
   * {@code key}'s stream told {@code value} (0 for {@code deleted}) in the event {@code id} from
   * {@code instance}; whether it followed the value before it by exactly one.
   */
  boolean value(String key, long value, @Nullable String id, String instance) {
    this.events.increment();
    KeyState state = state(key);
    Seen before = state.next(new Seen(value, id, instance));
    if (before == null || value == before.value() + 1) {
      return true;
    }
    String what;
    if (value == before.value()) {
      this.duplicates.increment();
      what = "duplicate";
    } else if (value < before.value()) {
      this.wentBack.increment();
      what = "went back";
    } else {
      this.gaps.increment();
      what = "gap of " + (value - before.value() - 1);
    }
    if (this.examples.size() < KEPT) {
      this.examples.add(
          key
              + ": "
              + what
              + ", "
              + value
              + " (id "
              + id
              + ", from "
              + instance
              + ") after "
              + before.value()
              + " (id "
              + before.id()
              + ", from "
              + before.instance()
              + ")");
    }
    return false;
  }

  /**
   * {@code key}'s stream told a value of {@code other} in the event {@code id} from {@code
   * instance}.
   */
  void otherKey(String key, String other, @Nullable String id, String instance) {
    this.events.increment();
    this.otherKeys.increment();
    if (this.examples.size() < KEPT) {
      this.examples.add(key + ": an event of " + other + " (id " + id + ", from " + instance + ")");
    }
  }

  /** The last value {@code key}'s stream told, or {@code null} before any. */
  @Nullable Long last(String key) {
    KeyState state = this.keys.get(key);
    return (state != null) ? state.lastValue() : null;
  }

  /** The keys of {@code counts} whose last value told is not their count there, each described. */
  List<String> mismatches(Map<String, Long> counts) {
    List<String> found = new ArrayList<>();
    for (Map.Entry<String, Long> count : new TreeMap<>(counts).entrySet()) {
      String key = count.getKey();
      Long last = last(key);
      long expected = count.getValue();
      if (last == null || last != expected) {
        found.add(key + ": last value " + last + ", orders published " + expected);
      }
    }
    return found;
  }

  /** The followed keys, in order. */
  List<String> keys() {
    return List.copyOf(new TreeMap<>(this.keys).keySet());
  }

  /** Events received: values, deletions and skips, without the events that end a stream. */
  long events() {
    return this.events.sum();
  }

  /** Streams opened without an id: the first of each key, and any before its first id. */
  long freshStarts() {
    return this.freshStarts.sum();
  }

  /** Events that said the stream could not go on after the id it was sent. */
  long skipped() {
    return this.skipped.sum();
  }

  /** Values more than one above the value before them. */
  long gaps() {
    return this.gaps.sum();
  }

  /** Values equal to the value before them. */
  long duplicates() {
    return this.duplicates.sum();
  }

  /** Values lower than the value before them. */
  long wentBack() {
    return this.wentBack.sum();
  }

  /** Events of another key than the stream's. */
  long otherKeys() {
    return this.otherKeys.sum();
  }

  /** Events out of order: gaps, duplicates, values that went back, and events of another key. */
  long outOfOrder() {
    return gaps() + duplicates() + wentBack() + otherKeys();
  }

  /** How many streams ended, by why, each followed by a reconnect. */
  Map<String, Long> endings() {
    return sums(this.ended);
  }

  /** How many streams ended, whatever why. */
  long reconnects() {
    return this.ended.values().stream().mapToLong(LongAdder::sum).sum();
  }

  /** Attempts to open a stream, by outcome. */
  Map<String, Long> opens() {
    return sums(this.opened);
  }

  /** The first values out of order, each with the value before it. */
  List<String> examples() {
    return List.copyOf(this.examples);
  }

  private KeyState state(String key) {
    return this.keys.computeIfAbsent(key, name -> new KeyState());
  }

  private static Map<String, Long> sums(Map<String, LongAdder> counts) {
    Map<String, Long> sums = new TreeMap<>();
    counts.forEach((name, count) -> sums.put(name, count.sum()));
    return sums;
  }

  /** One value told, with its event's id and the instance that served the stream. */
  private record Seen(long value, @Nullable String id, String instance) {}

  /** A key's last value, and whether the next one starts the count afresh. */
  private static final class KeyState {

    private @Nullable Seen last;

    private boolean fresh = true;

    synchronized void restart() {
      this.fresh = true;
    }

    /** Records {@code seen}; the value before it to compare with, or {@code null} when fresh. */
    synchronized @Nullable Seen next(Seen seen) {
      Seen before = this.fresh ? null : this.last;
      this.last = seen;
      this.fresh = false;
      return before;
    }

    synchronized @Nullable Long lastValue() {
      Seen seen = this.last;
      return (seen != null) ? seen.value() : null;
    }
  }
}
