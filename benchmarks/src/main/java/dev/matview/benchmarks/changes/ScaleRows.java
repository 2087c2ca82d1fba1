package dev.matview.benchmarks.changes;

import dev.matview.benchmarks.BenchContext;
import dev.matview.benchmarks.Flags;
import dev.matview.benchmarks.Row;
import dev.matview.benchmarks.Stats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Row 11's figures at scale: events a second, latency against the commit interval, heap and threads
 * per open stream and the stream thread's rate with the streams open, on one instance, then the
 * relayed half's on two; a part that fails (an event missing) is a failed row, the others stand.
 */
final class ScaleRows {

  private static final int ROW = 11;

  private static final String TITLE = "change streams at scale";

  private static final double HEAP_GOAL_KB = 8;

  private static final double RATE_GOAL = 0.95;

  private static final int ADDED_THREADS_GOAL = 10;

  private static final double MB = 1024.0 * 1024.0;

  private final BenchContext context;

  private final Flags flags;

  ScaleRows(BenchContext context) {
    this.context = context;
    this.flags = context.flags();
  }

  /** Measures both parts and returns their rows. */
  List<Row> measure() {
    ChangesAtScale scale = new ChangesAtScale(this.context);
    List<Row> rows = new ArrayList<>();
    try {
      rows.addAll(single(scale.single()));
    } catch (Exception ex) {
      rows.add(failed("on one instance", ex));
    }
    try {
      rows.addAll(relayed(scale.relayed()));
    } catch (Exception ex) {
      rows.add(failed("relayed from a second instance", ex));
    }
    return rows;
  }

  private Row failed(String part, Exception ex) {
    this.context.note(TITLE, part + " failed: " + ex);
    return Row.failed(ROW, TITLE + ", " + part, String.valueOf(ex.getMessage()));
  }

  private List<Row> single(ChangesAtScale.Single single) {
    ScaleLoad.Measured load = single.load();
    String streams = count(ChangesAtScale.keys(this.flags)) + " key streams";
    String views = count(ChangesAtScale.views(this.flags)) + " view streams";
    String open = count(single.streams()) + " open streams";
    note("one instance", load);
    List<Row> rows = new ArrayList<>();
    rows.addAll(
        group(load, ScaleStreams.LOCAL, streams + " on one instance", streams + ", " + views));
    rows.addAll(group(load, ScaleStreams.VIEW, views + " on one instance", streams + ", " + views));
    double perStream = (single.heapOpen() - single.heapBefore()) / 1024.0 / single.streams();
    rows.add(
        Row.within(
                ROW,
                "live heap per open stream, " + open,
                perStream,
                Double.NaN,
                "KB",
                HEAP_GOAL_KB)
            .boundedBy(
                "live heap after the load and a full GC with the streams open ("
                    + Stats.format(single.heapOpen() / MB, "MB")
                    + "), less with none ("
                    + Stats.format(single.heapBefore() / MB, "MB")
                    + "), over the streams: each open request's server buffers ("
                    + this.flags.text("container", "tomcat")
                    + ") and the histories of the partitions followed"));
    rows.add(
        Row.addedAtMost(
                ROW,
                "live threads with " + open + " (beside: none open)",
                single.threadsOpen(),
                single.threadsBefore(),
                "",
                ADDED_THREADS_GOAL)
            .boundedBy(
                "goal: no thread per stream; "
                    + Stats.format(
                        (single.threadsOpen() - single.threadsBefore()) / single.streams(), "")
                    + " added per stream; the server's pool may grow while streams open"));
    rows.add(
        Row.atLeast(
                ROW,
                "orders/s catching up a backlog of "
                    + count(single.backlog())
                    + " orders with the "
                    + open
                    + " (beside: none open, before and after)",
                single.withStreams(),
                single.withoutStreams(),
                "orders/s",
                RATE_GOAL)
            .boundedBy(
                "the stream thread's rate, not a fixed input rate: the backlog published at once"
                    + " to the followed keys, timed from its first send until a lookup with after="
                    + " each partition's last offset answers; "
                    + single.openAfterBacklog()
                    + " streams were still open after it (a reader that falls "
                    + "matview.changes.buffer events behind is dropped)"));
    return rows;
  }

  private List<Row> relayed(ChangesAtScale.Relayed relayed) {
    ScaleLoad.Measured load = relayed.load();
    note("two instances", load);
    String streams =
        count(relayed.relayedKeys()) + " relayed of " + count(relayed.keys()) + " key streams";
    String views = count(ChangesAtScale.views(this.flags)) + " view streams";
    return group(load, ScaleStreams.RELAYED, streams, streams + ", " + views);
  }

  /** Events a second, then p99 against its goal, then p50, of {@code group}'s streams. */
  private List<Row> group(ScaleLoad.Measured load, int group, String streams, String open) {
    ScaleTally tally = load.tally(group);
    String rate = Stats.format(ChangesAtScale.rate(this.flags), "orders/s");
    String what = ", " + streams + ", " + rate + " (all open: " + open + ")";
    double commit = ChangesAtScale.COMMIT_INTERVAL_MS;
    return List.of(
        Row.info(
                ROW,
                "events delivered a second" + what + " (beside: offered)",
                load.perSecond(group),
                load.offered(group, ChangesAtScale.rate(this.flags)),
                "events/s")
            .boundedBy(
                "every event counted once per stream, none missing; the client's HTTP threads"
                    + " used "
                    + Stats.format(load.clientCores(), "cores")),
        Row.within(
                ROW,
                "change event p99" + what + " (beside: the commit interval)",
                tally.millis(99),
                commit,
                "ms",
                commit + 50)
            .boundedBy(
                "from the order's record timestamp (the time it was meant to be sent) to the"
                    + " event read by its client; goal: the commit interval + 50 ms"),
        Row.info(
            ROW,
            "change event p50" + what + " (beside: the commit interval)",
            tally.millis(50),
            commit,
            "ms"));
  }

  private void note(String part, ScaleLoad.Measured load) {
    StringBuilder note = new StringBuilder(part + ": " + load.orders() + " orders recorded");
    List<String> names = List.of("local key streams", "relayed key streams", "view streams");
    for (int group = 0; group < names.size(); group++) {
      ScaleTally tally = load.tally(group);
      note.append("; ")
          .append(names.get(group))
          .append(' ')
          .append(tally.received())
          .append(" events (")
          .append(tally.duplicates())
          .append(" twice), p50/p99/max ")
          .append(Stats.format(tally.millis(50), "ms"))
          .append(" / ")
          .append(Stats.format(tally.millis(99), "ms"))
          .append(" / ")
          .append(Stats.format(tally.maxMillis(), "ms"));
    }
    note.append("; client HTTP threads ").append(Stats.format(load.clientCores(), "cores"));
    this.context.note(TITLE, note.toString());
  }

  private static String count(long count) {
    return String.format(Locale.ROOT, "%,d", count);
  }
}
