package dev.matview.faults;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * The check of a client's reads of a view whose values only grow: the highest value it has seen of
 * each key, and every answer lower than that ("went back in time"). A key without a value (404)
 * counts as lower than any value seen of it.
 */
final class MonotonicReads {

  private static final int KEPT = 20;

  private final Map<String, Seen> highest = new ConcurrentHashMap<>();

  private final LongAdder checked = new LongAdder();

  private final LongAdder wentBack = new LongAdder();

  private final List<String> examples = new CopyOnWriteArrayList<>();

  /**
   * Records that {@code key} was answered {@code value} ({@code null}: not found) by {@code
   * answeredBy}, a description of who answered; whether it went back in time.
   */
  boolean record(String key, @Nullable Long value, String answeredBy) {
    this.checked.increment();
    long read = (value != null) ? value : -1;
    Seen[] before = new Seen[1];
    this.highest.compute(
        key,
        (name, seen) -> {
          before[0] = seen;
          return (seen == null || read > seen.value()) ? new Seen(read, answeredBy) : seen;
        });
    Seen seen = before[0];
    if (seen == null || read >= seen.value()) {
      return false;
    }
    this.wentBack.increment();
    if (this.examples.size() < KEPT) {
      this.examples.add(
          key
              + ": "
              + ((value != null) ? value : "not found")
              + " from "
              + answeredBy
              + ", after "
              + seen.value()
              + " from "
              + seen.answeredBy());
    }
    return true;
  }

  /** How many answers were checked. */
  long checked() {
    return this.checked.sum();
  }

  /** How many answers were lower than a value seen before of their key. */
  long wentBack() {
    return this.wentBack.sum();
  }

  /** The first answers that went back in time, each with the higher value seen before it. */
  List<String> examples() {
    return List.copyOf(this.examples);
  }

  private record Seen(long value, String answeredBy) {}
}
