package dev.matview.benchmarks.changes;

import dev.matview.benchmarks.BenchContext;
import dev.matview.benchmarks.Benchmark;
import dev.matview.benchmarks.ClusterSpec;
import dev.matview.benchmarks.Clusters;
import dev.matview.benchmarks.Flags;
import dev.matview.benchmarks.Row;
import dev.matview.benchmarks.Stats;
import dev.matview.benchmarks.process.AppInstance;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Row 11, issue 29's goals for change streams, on an instance of its own that keeps the view of
 * orders by id: how long an update takes to reach the client that follows its key, at a fixed rate
 * of orders over a few streams, beside a plain consumer of the same orders; then what idle streams
 * on distinct keys cost that instance in live heap and threads; then the same view at scale ({@link
 * ChangesAtScale}): 10,000 key streams and 100 view streams under 2,000 orders/s, on one instance
 * and relayed from a second.
 */
public final class ChangeStreamsBenchmark implements Benchmark {

  private static final String TITLE = "change streams: latency and idle streams";

  private static final int ROW = 11;

  private static final double LATENCY_GOAL_MILLIS = 50;

  @Override
  public int row() {
    return ROW;
  }

  @Override
  public String name() {
    return "changes";
  }

  @Override
  public String title() {
    return TITLE;
  }

  @Override
  public List<ClusterSpec> clusters(Flags flags) {
    List<ClusterSpec> clusters = new ArrayList<>(List.of(cluster(flags)));
    clusters.addAll(ChangesAtScale.clusters(flags));
    return clusters;
  }

  /**
   * One instance keeping only the view of orders by id over one order of each key the row follows
   * ({@code --changes-keys} for the latency, then the largest of {@code --changes-idle}), with the
   * metrics endpoint, room in the server for every stream, {@code --changes-heartbeat-seconds}, and
   * a heap large enough that the streams' own cost is measured, not a full heap's ({@code
   * --changes-jvm-options}).
   */
  static ClusterSpec cluster(Flags flags) {
    int keys = flags.integer("changes-keys", 100);
    int idle = idleCounts(flags).stream().mapToInt(Integer::intValue).max().orElse(0);
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("management.endpoints.web.exposure.include", "health,metrics");
    properties.put("server.tomcat.max-connections", Integer.toString(idle + keys + 1_000));
    properties.put("server.jetty.max-connections", Integer.toString(idle + keys + 1_000));
    properties.put("matview.changes.max-streams", Integer.toString(Math.max(10_000, idle + keys)));
    properties.put("matview.changes.heartbeat", heartbeat(flags).toMillis() + "ms");
    return new ClusterSpec(
        "changes",
        1,
        keys + idle,
        1_000,
        Set.of(Clusters.ORDER_VIEW),
        Map.copyOf(properties),
        List.of(flags.text("changes-jvm-options", "-Xmx2g").trim().split("\\s+")));
  }

  @Override
  public List<Row> run(BenchContext context) throws Exception {
    Flags flags = context.flags();
    ClusterSpec spec = cluster(flags);
    List<Row> rows = new ArrayList<>();
    try {
      AppInstance app = context.cluster(spec).instance(0);
      int keys = flags.integer("changes-keys", 100);
      rows.addAll(latency(context, spec, app, keys));
      IdleStreams.Measured idle =
          new IdleStreams(app, Clusters.ORDER_VIEW)
              .run(
                  idleCounts(flags),
                  (index) -> "order-" + (keys + index),
                  heartbeat(flags).multipliedBy(2).plusSeconds(15));
      rows.addAll(new IdleRows(context, ROW, TITLE).of(idle));
    } finally {
      context.discard(spec);
    }
    rows.addAll(new ScaleRows(context).measure());
    return rows;
  }

  private List<Row> latency(BenchContext context, ClusterSpec spec, AppInstance app, int keys)
      throws InterruptedException {
    Flags flags = context.flags();
    double rate = flags.decimal("changes-rate", 1_000);
    List<String> followed = IntStream.range(0, keys).mapToObj(i -> "order-" + i).toList();
    ChangeLatency.Measured measured =
        new ChangeLatency(context.broker().bootstrapServers(), spec.topic(), Clusters.ORDER_VIEW)
            .run(
                app,
                followed,
                rate,
                flags.decimal("changes-warmup-seconds", 5),
                flags.decimal("changes-seconds", 20));
    Latencies events = measured.events();
    Latencies consumed = measured.consumed();
    context.note(
        TITLE,
        measured.sent()
            + " orders recorded, "
            + events.received()
            + " of their events received ("
            + events.duplicates()
            + " twice), "
            + consumed.received()
            + " consumed, "
            + measured.failedSends()
            + " sends failed; p50/p99/max "
            + Stats.format(events.millis(50), "ms")
            + " / "
            + Stats.format(events.millis(99), "ms")
            + " / "
            + Stats.format(events.maxMillis(), "ms"));
    String load = Stats.format(rate, "updates/s") + " over " + keys + " streams";
    return List.of(
        Row.within(
                ROW,
                "change event p99, order sent to event read, "
                    + load
                    + " (beside: a plain consumer of the same orders)",
                events.millis(99),
                consumed.millis(99),
                "ms",
                LATENCY_GOAL_MILLIS)
            .boundedBy(
                "an upper bound of the update-to-event time: the send, the broker, Kafka Streams'"
                    + " fetch and processing, the store's put, the stream's queue and dispatcher"
                    + " thread, the SSE write; the plain consumer's figure is Kafka's part"),
        Row.info(
            ROW,
            "change event p50, " + load + " (beside: the plain consumer)",
            events.millis(50),
            consumed.millis(50),
            "ms"),
        Row.info(
            ROW,
            "change event max, " + load + " (beside: the plain consumer)",
            events.maxMillis(),
            consumed.maxMillis(),
            "ms"),
        Row.atLeast(
                ROW,
                "change events received of the orders sent (beside: sent)",
                events.received(),
                measured.sent() - measured.failedSends(),
                "",
                1.0)
            .boundedBy("goal: none lost; " + events.duplicates() + " received twice"));
  }

  private static List<Integer> idleCounts(Flags flags) {
    return flags.list("changes-idle", List.of("1000", "10000")).stream()
        .map(count -> Integer.parseInt(count.replace("_", "")))
        .sorted()
        .toList();
  }

  private static Duration heartbeat(Flags flags) {
    return Duration.ofMillis(Math.round(flags.decimal("changes-heartbeat-seconds", 15) * 1000));
  }
}
