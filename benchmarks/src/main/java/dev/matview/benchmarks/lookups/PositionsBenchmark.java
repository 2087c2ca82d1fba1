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
import dev.matview.benchmarks.lookups.ReadYourWrites.Latencies;
import dev.matview.benchmarks.lookups.ReadYourWrites.View;
import dev.matview.benchmarks.process.AppInstance;
import dev.matview.benchmarks.process.LoadDriverProcess;
import dev.matview.position.PositionTokens;
import dev.matview.processes.http.HttpProbe;
import java.util.ArrayList;
import java.util.List;

/**
 * Row 10, issue 29's goals for positions. On row 1's instance, key lookups that send back the
 * position their key's plain answer carried ({@code ?position=}), a bound already met, against the
 * same lookups without it. On an instance of their own, read-your-writes: orders sent one at a
 * time, each looked up with {@code after=} the offset its send's ack gave, on a view that re-keys
 * and one that does not.
 */
public final class PositionsBenchmark implements Benchmark {

  private static final String TITLE = "positions: bounded lookups and read-your-writes";

  @Override
  public int row() {
    return 10;
  }

  @Override
  public String name() {
    return "positions";
  }

  @Override
  public String title() {
    return TITLE;
  }

  @Override
  public List<ClusterSpec> clusters(Flags flags) {
    return List.of(Clusters.oneInstance(flags), ReadYourWrites.cluster(flags));
  }

  /**
   * Loads both instances at once, times read-your-writes while row 1's instance idles, then the
   * bounded lookups once the other instance is gone.
   */
  @Override
  public List<Row> run(BenchContext context) throws Exception {
    context.prepare(ReadYourWrites.cluster(context.flags()));
    context.cluster(Clusters.oneInstance(context.flags()));
    List<Row> written = readYourWrites(context);
    List<Row> rows = new ArrayList<>(boundedLookups(context));
    rows.addAll(written);
    return rows;
  }

  private List<Row> boundedLookups(BenchContext context) {
    Flags flags = context.flags();
    ClusterSpec spec = Clusters.oneInstance(flags);
    AppInstance app = context.cluster(spec).instance(0);
    String prefix = "/views/" + Clusters.TABLE_VIEW + "/keys/";
    List<String> keys =
        KeySample.customers(spec.customers(), flags.integer("position-keys", 10_000)).stream()
            .distinct()
            .toList();
    List<String> bounded = new ArrayList<>(keys.size());
    for (String key : keys) {
      HttpProbe.Answer answer = app.http().get(prefix + key);
      String token = answer.header(PositionTokens.HEADER);
      if (answer.status() != 200 || token.isEmpty()) {
        throw new IllegalStateException("No position on " + answer.describe());
      }
      bounded.add(prefix + key + "?position=" + HttpProbe.encode(token));
    }
    context.log(TITLE + ": the positions of " + keys.size() + " keys read");
    LoadDriverProcess plainLoad = load(context, KeySample.paths(prefix, keys));
    LoadDriverProcess boundedLoad = load(context, bounded);
    List<Long> pids = List.of(app.pid());
    LoadRounds saturated =
        new LoadRounds(context, TITLE, pids).run(plainLoad, app.port(), boundedLoad, app.port(), 0);
    double plainPeak = saturated.baseline(LoadResult::throughput);
    double rate = plainPeak / 2;
    LoadRounds fixed =
        new LoadRounds(context, TITLE, pids)
            .run(plainLoad, app.port(), boundedLoad, app.port(), rate);
    return List.of(
        Row.atLeast(
                10,
                "lookups/s at saturation with ?position= already met (beside: the same without)",
                saturated.matview(LoadResult::throughput),
                plainPeak,
                "req/s",
                0.95)
            .boundedBy(tokenCost(saturated)),
        Row.info(
            10,
            "the app's CPU time per lookup at saturation, background included, with ?position="
                + " (beside: without)",
            saturated.matviewCpuMicros(),
            saturated.baselineCpuMicros(),
            "µs"),
        Row.info(
            10,
            "p99 at half the plain lookups' peak ("
                + Stats.format(rate, "req/s")
                + "), with ?position= (beside: without)",
            fixed.matview(LoadResult::p99Micros) / 1000,
            fixed.baseline(LoadResult::p99Micros) / 1000,
            "ms"));
  }

  private List<Row> readYourWrites(BenchContext context) {
    int orders = context.flags().integer("rw-orders", 500);
    ReadYourWrites.Measured measured = new ReadYourWrites(context, TITLE).run(orders);
    Latencies rekeyed = measured.rekeyed();
    Latencies plain = measured.byRecordKey();
    for (View view : View.values()) {
      Latencies latencies = measured.of(view);
      context.log(
          TITLE
              + ": "
              + view.name
              + ": p50 "
              + Stats.format(latencies.answerMillis(50), "ms")
              + ", p99 "
              + Stats.format(latencies.answerMillis(99), "ms")
              + ", to the ack p50 "
              + Stats.format(latencies.ackMillis(50), "ms")
              + ", "
              + latencies.failures()
              + " of "
              + latencies.sent()
              + " answers without the order");
      latencies
          .failed()
          .forEach(answer -> context.note(TITLE, view.name + ": not included: " + answer));
    }
    String views = " (" + orders + " orders each), re-keyed view (beside: one that is not)";
    return List.of(
        Row.info(
                10,
                "read-your-writes, send to the first answer that includes it, p50" + views,
                rekeyed.answerMillis(50),
                plain.answerMillis(50),
                "ms")
            .boundedBy(repartitionBound(context.flags())),
        Row.info(
            10,
            "read-your-writes, send to the first answer that includes it, p99" + views,
            rekeyed.answerMillis(99),
            plain.answerMillis(99),
            "ms"),
        Row.info(
                10,
                "the share of read-your-writes before the send's ack (mean over mean)" + views,
                rekeyed.ackShare(),
                plain.ackShare(),
                "")
            .boundedBy(
                "the send's ack p50: "
                    + Stats.format(rekeyed.ackMillis(50), "ms")
                    + " and "
                    + Stats.format(plain.ackMillis(50), "ms")),
        Row.info(
            10,
            "read-your-writes lookups that were not a 200 including the order" + views,
            rekeyed.failures(),
            plain.failures(),
            ""));
  }

  /** What a bound already met adds to a lookup, as the app's CPU per lookup measured it. */
  private static String tokenCost(LoadRounds saturated) {
    double extra = saturated.matviewCpuMicros() - saturated.baselineCpuMicros();
    String cpu =
        (extra > 0)
            ? Stats.format(extra, "µs") + " more of the app's CPU per lookup in this run"
            : "no more of the app's CPU per lookup than this run's noise";
    return "the token sent decoded, its HMAC-SHA256 checked and the store partition's offset"
        + " compared: "
        + cpu;
  }

  /** What the re-keyed view's read-your-writes waits for beyond the other view's. */
  private static String repartitionBound(Flags flags) {
    String linger = flags.text("rw-streams-linger-ms", "");
    return linger.isEmpty()
        ? "the repartition topic: Kafka Streams' producer lingers up to 100 ms (its linger.ms)"
            + " before it writes it; --rw-streams-linger-ms=0 takes that out"
        : "the repartition topic, written by Kafka Streams' producer at linger.ms=" + linger;
  }

  private static LoadDriverProcess load(BenchContext context, List<String> paths) {
    Flags flags = context.flags();
    return new LoadDriverProcess(
        context.dir("load"),
        paths,
        flags.integer("connections", 16),
        flags.decimal("positions-seconds", 5),
        flags.decimal("positions-warmup-seconds", 2));
  }
}
