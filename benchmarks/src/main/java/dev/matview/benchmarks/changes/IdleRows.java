package dev.matview.benchmarks.changes;

import dev.matview.benchmarks.BenchContext;
import dev.matview.benchmarks.Flags;
import dev.matview.benchmarks.Row;
import dev.matview.benchmarks.Stats;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Row 11's idle streams as rows: the live heap and threads at each count of idle streams. */
final class IdleRows {

  private static final double HEAP_GOAL_MB = 256;

  private static final int ADDED_THREADS_GOAL = 10;

  private static final double MB = 1024.0 * 1024.0;

  private final BenchContext context;

  private final int row;

  private final String title;

  /** Rows numbered {@code row}, noting under {@code title} in {@code context}. */
  IdleRows(BenchContext context, int row, String title) {
    this.context = context;
    this.row = row;
    this.title = title;
  }

  /** What an open stream keeps on the container the run chose ({@code --container}). */
  private static String containerCost(Flags flags) {
    return "jetty".equals(flags.text("container", "tomcat"))
        ? "on Jetty, an open SSE request keeps no buffer while it has nothing to write"
        : "on Tomcat, an open SSE request keeps its processor and its buffers";
  }

  /** The rows of {@code idle}: live heap, heap per stream and threads at each count of streams. */
  List<Row> of(IdleStreams.Measured idle) {
    List<Row> rows = new ArrayList<>();
    for (IdleStreams.Step step : idle.steps()) {
      String streams = String.format(java.util.Locale.ROOT, "%,d", step.streams());
      String grown = grownPerStream(step);
      this.context.note(
          this.title, streams + " idle streams, live heap grown per stream by class: " + grown);
      String figure =
          "live heap after a full GC with " + streams + " idle streams (beside: none open)";
      double heap = step.heapBytes() / MB;
      Row heapRow =
          (step == idle.steps().get(idle.steps().size() - 1))
              ? Row.within(this.row, figure, heap, idle.heapBefore() / MB, "MB", HEAP_GOAL_MB)
              : Row.info(this.row, figure, heap, idle.heapBefore() / MB, "MB");
      rows.add(
          heapRow.boundedBy(containerCost(this.context.flags()) + "; grown per stream: " + grown));
      rows.add(
          Row.info(
              this.row,
              "live heap per idle stream, " + streams + " streams",
              step.bytesPerStream(idle.heapBefore()) / 1024,
              Double.NaN,
              "KB"));
      rows.add(
          Row.addedAtMost(
                  this.row,
                  "live threads with " + streams + " idle streams (beside: none open)",
                  step.threads(),
                  idle.threadsBefore(),
                  "",
                  ADDED_THREADS_GOAL)
              .boundedBy(
                  "goal: no thread per stream; the change streams' three threads exist before"
                      + " any, the server's pool may grow while "
                      + SseStreams.OPENING_AT_ONCE
                      + " streams open at once"));
    }
    return rows;
  }

  /** The classes whose live bytes grew most, per stream, such as {@code [B 2.1 KB}. */
  private static String grownPerStream(IdleStreams.Step step) {
    return step.grown().stream()
        .map(
            entry ->
                entry.getKey()
                    + " "
                    + Stats.format((double) entry.getValue() / step.streams() / 1024, "KB"))
        .collect(Collectors.joining(", "));
  }
}
