package dev.matview.benchmarks.changes;

import dev.matview.benchmarks.process.AppInstance;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Row 11's idle streams: what change streams that receive nothing cost one instance, from its live
 * heap after a full GC and its live threads, first with none open, then with each count of streams
 * open on distinct keys (the counts ascending, each adding streams to the ones before).
 */
final class IdleStreams {

  /** The classes whose growth the report names. */
  private static final int GROWN_CLASSES = 6;

  private final AppInstance app;

  private final String view;

  /** Idle streams of {@code app}'s {@code view}. */
  IdleStreams(AppInstance app, String view) {
    this.app = app;
    this.view = view;
  }

  /**
   * Waits until {@code app} serves no stream (at most {@code bound}), measures it, then opens
   * streams of {@code keys} (by index) up to each of {@code counts} and measures it again.
   */
  Measured run(List<Integer> counts, IntFunction<String> keys, Duration bound)
      throws IOException, InterruptedException {
    awaitStreams(0, bound);
    HeapHistogram before = HeapHistogram.of(this.app.pid());
    int threadsBefore = (int) metric("jvm.threads.live");
    List<Step> steps = new ArrayList<>();
    try (SseStreams streams = new SseStreams(this.app.port())) {
      int opened = 0;
      for (int count : counts) {
        for (; opened < count; opened++) {
          streams.open("/views/" + this.view + "/keys/" + keys.apply(opened) + "/changes", e -> {});
        }
        streams.awaitOpen(count, Duration.ofSeconds(60).plusMillis(count * 10L));
        awaitStreams(count, Duration.ofSeconds(30));
        HeapHistogram heap = HeapHistogram.of(this.app.pid());
        int threads = (int) metric("jvm.threads.live");
        steps.add(
            new Step(count, heap.totalBytes(), threads, heap.grownSince(before, GROWN_CLASSES)));
      }
    }
    return new Measured(before.totalBytes(), threadsBefore, steps);
  }

  private void awaitStreams(int count, Duration bound) {
    AppMetrics.awaitStreams(this.app, count, bound);
  }

  private double metric(String name) {
    return AppMetrics.value(this.app, name);
  }

  /**
   * The instance without streams, then with each count of them.
   *
   * @param heapBefore live heap bytes with no stream open
   * @param threadsBefore live threads with no stream open
   * @param steps the instance with each count of streams open
   */
  record Measured(long heapBefore, int threadsBefore, List<Step> steps) {}

  /**
   * The instance with {@code streams} idle streams open.
   *
   * @param streams the idle streams open
   * @param heapBytes live heap bytes after a full GC
   * @param threads live threads
   * @param grown the classes whose live bytes grew most since no stream was open, with the growth
   */
  record Step(int streams, long heapBytes, int threads, List<Map.Entry<String, Long>> grown) {

    /** Live heap grown per stream since none was open, in bytes. */
    double bytesPerStream(long heapBefore) {
      return (double) (this.heapBytes - heapBefore) / this.streams;
    }
  }
}
