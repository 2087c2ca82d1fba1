package dev.matview.deadletter;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the dead letters this instance wrote per view ({@code none} for records of no view), since
 * it started.
 */
public final class DeadLetterCounts implements DeadLetterListener {

  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

  @Override
  public void published(DeadLetter letter) {
    String view = letter.view();
    this.counts
        .computeIfAbsent((view != null) ? view : "none", (named) -> new LongAdder())
        .increment();
  }

  /** The dead letters written so far, by view in name order. */
  public Map<String, Long> byView() {
    Map<String, Long> byView = new TreeMap<>();
    this.counts.forEach((view, count) -> byView.put(view, count.sum()));
    return byView;
  }
}
