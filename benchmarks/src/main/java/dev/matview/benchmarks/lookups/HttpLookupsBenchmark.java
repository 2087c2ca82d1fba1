package dev.matview.benchmarks.lookups;

import dev.matview.benchmarks.BenchContext;
import dev.matview.benchmarks.Benchmark;
import dev.matview.benchmarks.ClusterSpec;
import dev.matview.benchmarks.Clusters;
import dev.matview.benchmarks.Flags;
import dev.matview.benchmarks.KeySample;
import dev.matview.benchmarks.Row;
import dev.matview.benchmarks.Stats;
import dev.matview.benchmarks.load.LoadResult;
import dev.matview.benchmarks.process.AppInstance;
import dev.matview.benchmarks.process.HandWrittenLookupsInstance;
import dev.matview.benchmarks.process.LoadDriverProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Row 1: key lookups over HTTP on one instance holding {@code --keys} keys, against an endpoint of
 * the same app that serves the same JSON from a {@code ConcurrentHashMap}, and against the app a
 * user would write instead ({@code HandWrittenLookupsApp}, unless {@code --hand-written=false};
 * answering through Kafka Streams' IQv2 with {@code --hand-written-iqv2}).
 */
public final class HttpLookupsBenchmark implements Benchmark {

  private static final String TITLE = "HTTP key lookups, one instance";

  @Override
  public int row() {
    return 1;
  }

  @Override
  public String name() {
    return "lookups";
  }

  @Override
  public String title() {
    return TITLE;
  }

  @Override
  public List<ClusterSpec> clusters(Flags flags) {
    return List.of(Clusters.oneInstance(flags));
  }

  @Override
  public List<Row> run(BenchContext context) throws Exception {
    Flags flags = context.flags();
    ClusterSpec spec = Clusters.oneInstance(flags);
    AppInstance app = context.cluster(spec).instance(0);
    List<String> keys =
        KeySample.customers(spec.customers(), flags.integer("lookup-keys", 100_000));
    LoadDriverProcess matview =
        load(context, KeySample.paths("/views/" + Clusters.TABLE_VIEW + "/keys/", keys));
    List<Row> handWrittenRows =
        flags.bool("hand-written", true)
            ? besideHandWritten(context, spec, app, keys, matview)
            : List.<Row>of();
    String filled =
        app.http()
            .withTimeout(Duration.ofMinutes(2))
            .post("/baseline/" + Clusters.TABLE_VIEW + "/fill")
            .body();
    context.log(TITLE + ": baseline map filled: " + filled);
    LoadDriverProcess baseline =
        load(context, KeySample.paths("/baseline/" + Clusters.TABLE_VIEW + "/keys/", keys));
    List<Long> pids = List.of(app.pid());
    LoadRounds saturated =
        new LoadRounds(context, TITLE, pids).run(baseline, app.port(), matview, app.port(), 0);
    double baselinePeak = saturated.baseline(LoadResult::throughput);
    double rate = baselinePeak / 2;
    LoadRounds fixed =
        new LoadRounds(context, TITLE, pids).run(baseline, app.port(), matview, app.port(), rate);
    double ownRate = saturated.matview(LoadResult::throughput) / 2;
    LoadRounds ownHalf =
        new LoadRounds(context, TITLE, pids)
            .run(baseline, app.port(), matview, app.port(), ownRate);
    List<Row> rows = new ArrayList<>(mapRows(saturated, fixed, baselinePeak, rate));
    rows.add(
        Row.info(
            1,
            "p99 at half each side's own peak (Matview at "
                + Stats.format(ownRate, "req/s")
                + ", beside: the map at "
                + Stats.format(rate, "req/s")
                + ")",
            ownHalf.matview(LoadResult::p99Micros) / 1000,
            fixed.baseline(LoadResult::p99Micros) / 1000,
            "ms"));
    rows.addAll(handWrittenRows);
    return rows;
  }

  private static List<Row> mapRows(
      LoadRounds saturated, LoadRounds fixed, double baselinePeak, double rate) {
    return List.of(
        Row.atLeast(
                1,
                "lookups/s at saturation",
                saturated.matview(LoadResult::throughput),
                baselinePeak,
                "req/s",
                0.90)
            .boundedBy("a RocksDB read and a JSON decode per request, which the map skips"),
        Row.addedAtMost(
                1,
                "p99 at half the baseline's peak (" + Stats.format(rate, "req/s") + ")",
                fixed.matview(LoadResult::p99Micros) / 1000,
                fixed.baseline(LoadResult::p99Micros) / 1000,
                "ms",
                0.5)
            .boundedBy("the rate is over three quarters of Matview's own peak: queueing"),
        Row.info(
            1,
            "p50 at half the baseline's peak",
            fixed.matview(LoadResult::p50Micros) / 1000,
            fixed.baseline(LoadResult::p50Micros) / 1000,
            "ms"),
        Row.info(
            1,
            "the app's CPU time per lookup at saturation, its background included",
            saturated.matviewCpuMicros(),
            saturated.baselineCpuMicros(),
            "µs"),
        Row.info(
            1,
            "the app's CPU time per lookup at half the baseline's peak, background included",
            fixed.matviewCpuMicros(),
            fixed.baselineCpuMicros(),
            "µs"));
  }

  /**
   * The same lookups against what a user would write instead (the hand-written Spring and Kafka
   * Streams app, in a JVM of its own over the same orders), at saturation and at half its peak.
   * They run before the map is filled: the map's million entries live in Matview's heap, where they
   * kept G1 marking concurrently through every round, a cost the user's app would not have.
   */
  private static List<Row> besideHandWritten(
      BenchContext context,
      ClusterSpec spec,
      AppInstance app,
      List<String> keys,
      LoadDriverProcess matview) {
    String title = TITLE + " beside the hand-written app";
    try (HandWrittenLookupsInstance handWritten =
        new HandWrittenLookupsInstance(
            "hand-written-lookups",
            context.dir("hand-written-lookups"),
            context.broker(),
            spec.topic(),
            context.appJvmOptions())) {
      handWritten.startAndAwaitServing(
          context.broker(), keys.get(0), Duration.ofMinutes(10).plusSeconds(spec.orders() / 1_000));
      context.log(title + ": the hand-written app has counted every order");
      boolean interactiveQueries = context.flags().bool("hand-written-iqv2", false);
      handWritten.requireAnswers(
          interactiveQueries
              ? HandWrittenLookupsInstance.interactiveQueryPath(keys.get(0))
              : HandWrittenLookupsInstance.path(keys.get(0)));
      LoadDriverProcess userApp =
          load(
              context,
              keys.stream()
                  .map(
                      interactiveQueries
                          ? HandWrittenLookupsInstance::interactiveQueryPath
                          : HandWrittenLookupsInstance::path)
                  .toList());
      String beside =
          interactiveQueries
              ? "the hand-written Spring + Kafka Streams app, IQv2"
              : "the hand-written Spring + Kafka Streams app";
      List<Long> baselinePids = List.of(handWritten.pid());
      List<Long> matviewPids = List.of(app.pid());
      LoadRounds saturated =
          new LoadRounds(context, title, baselinePids, matviewPids)
              .run(userApp, handWritten.port(), matview, app.port(), 0);
      double peak = saturated.baseline(LoadResult::throughput);
      double rate = peak / 2;
      LoadRounds fixed =
          new LoadRounds(context, title, baselinePids, matviewPids)
              .run(userApp, handWritten.port(), matview, app.port(), rate);
      return List.of(
          Row.atLeast(
                  1,
                  "lookups/s at saturation (beside: " + beside + ")",
                  saturated.matview(LoadResult::throughput),
                  peak,
                  "req/s",
                  1.00)
              .boundedBy(
                  interactiveQueries
                      ? "goal: what a user would write instead, an IQv2 KeyQuery in the key's"
                          + " partition per request with Kafka Streams' own store settings"
                      : "goal: what a user would write instead, KafkaStreams.store(...).get(key)"
                          + " per request with Kafka Streams' own store settings"),
          Row.addedAtMost(
                  1,
                  "p99 at half the hand-written app's peak ("
                      + Stats.format(rate, "req/s")
                      + ", beside: "
                      + beside
                      + ")",
                  fixed.matview(LoadResult::p99Micros) / 1000,
                  fixed.baseline(LoadResult::p99Micros) / 1000,
                  "ms",
                  0.5)
              .boundedBy("the same rate on both"),
          Row.info(
              1,
              "the app's CPU time per lookup at saturation, background included (beside: "
                  + beside
                  + ")",
              saturated.matviewCpuMicros(),
              saturated.baselineCpuMicros(),
              "µs"));
    }
  }

  static LoadDriverProcess load(BenchContext context, List<String> paths) {
    Flags flags = context.flags();
    return new LoadDriverProcess(
        context.dir("load"),
        paths,
        flags.integer("connections", 16),
        flags.decimal("seconds", 10),
        flags.decimal("warmup-seconds", 3));
  }
}
