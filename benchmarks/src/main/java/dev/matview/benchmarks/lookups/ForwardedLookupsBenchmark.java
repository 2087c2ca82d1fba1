package dev.matview.benchmarks.lookups;

import dev.matview.benchmarks.BenchContext;
import dev.matview.benchmarks.Benchmark;
import dev.matview.benchmarks.ClusterSpec;
import dev.matview.benchmarks.Clusters;
import dev.matview.benchmarks.Flags;
import dev.matview.benchmarks.KeySample;
import dev.matview.benchmarks.LoadedCluster;
import dev.matview.benchmarks.Row;
import dev.matview.benchmarks.Stats;
import dev.matview.benchmarks.load.LoadResult;
import dev.matview.benchmarks.process.AppInstance;
import dev.matview.benchmarks.process.LoadDriverProcess;
import dev.matview.position.PositionTokens;
import dev.matview.processes.http.HttpProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Row 3: lookups sent to one of two instances for keys the other owns, which it forwards, against
 * the same lookups sent to the owner and answered locally; then the forwarded lookups with a
 * position already met against the same without.
 */
public final class ForwardedLookupsBenchmark implements Benchmark {

  private static final String TITLE = "forwarded key lookups, two instances";

  /** The most lookups one request to an owner carries (GatheredKeyLookups). */
  private static final int GATHERED_AT_MOST = 64;

  @Override
  public int row() {
    return 3;
  }

  @Override
  public String name() {
    return "forwarded";
  }

  @Override
  public String title() {
    return TITLE;
  }

  @Override
  public List<ClusterSpec> clusters(Flags flags) {
    return List.of(Clusters.twoInstances(flags));
  }

  @Override
  public List<Row> run(BenchContext context) throws Exception {
    ClusterSpec spec = Clusters.twoInstances(context.flags());
    LoadedCluster cluster = context.cluster(spec);
    AppInstance asked = cluster.instance(0);
    AppInstance owner = cluster.instance(1);
    List<String> keys =
        keysOwnedBy(owner, asked, spec, context.flags().integer("forwarded-keys", 2_000));
    context.log(TITLE + ": " + keys.size() + " keys owned by " + owner.name());
    List<String> paths = KeySample.paths("/views/" + Clusters.TABLE_VIEW + "/keys/", keys);
    LoadDriverProcess local = HttpLookupsBenchmark.load(context, paths);
    LoadDriverProcess forwarded = HttpLookupsBenchmark.load(context, paths);
    List<Long> pids = List.of(asked.pid(), owner.pid());
    ServedRequests askedBefore = ServedRequests.of(asked);
    ServedRequests ownerBefore = ServedRequests.of(owner);
    LoadRounds saturated =
        new LoadRounds(context, TITLE, pids).run(local, owner.port(), forwarded, asked.port(), 0);
    double forwardedLookups = ServedRequests.of(asked).since(askedBefore).endingWith("/keys/{key}");
    double gatheredRequests =
        ServedRequests.of(owner).since(ownerBefore).endingWith("/forwarded-keys");
    double rate = saturated.matview(LoadResult::throughput) / 2;
    LoadRounds fixed =
        new LoadRounds(context, TITLE, pids)
            .run(local, owner.port(), forwarded, asked.port(), rate);
    LoadDriverProcess bounded = HttpLookupsBenchmark.load(context, boundedPaths(asked, paths));
    LoadRounds withPosition =
        new LoadRounds(context, TITLE, pids).run(forwarded, asked.port(), bounded, asked.port(), 0);
    return List.of(
        Row.atLeast(
                3,
                "forwarded lookups/s at saturation",
                saturated.matview(LoadResult::throughput),
                saturated.baseline(LoadResult::throughput),
                "req/s",
                0.6)
            .boundedBy("two lookups and two HTTP exchanges on 2 cores"),
        Row.addedAtMost(
                3,
                "p50 at half the forwarded peak (" + Stats.format(rate, "req/s") + ")",
                fixed.matview(LoadResult::p50Micros) / 1000,
                fixed.baseline(LoadResult::p50Micros) / 1000,
                "ms",
                0.5)
            .boundedBy("a second lookup path and HTTP exchange on the same 2 cores"),
        Row.info(
            3,
            "p99 at half the forwarded peak",
            fixed.matview(LoadResult::p99Micros) / 1000,
            fixed.baseline(LoadResult::p99Micros) / 1000,
            "ms"),
        Row.info(
            3,
            "both instances' CPU time per lookup at saturation, background included",
            saturated.matviewCpuMicros(),
            saturated.baselineCpuMicros(),
            "µs"),
        Row.info(
            3,
            "the asking instance's CPU time per forwarded lookup at saturation (beside: the"
                + " owner's)",
            saturated.matviewCpuMicrosOf(0),
            saturated.matviewCpuMicrosOf(1),
            "µs"),
        Row.info(
            3,
            "the owner's CPU time per forwarded lookup at saturation (beside: per local lookup)",
            saturated.matviewCpuMicrosOf(1),
            saturated.baselineCpuMicrosOf(1),
            "µs"),
        Row.info(
            3,
            "lookups a request to the owner carried, mean over the saturated rounds and their"
                + " warm-up (beside: the most one carries)",
            Stats.ratio(forwardedLookups, gatheredRequests),
            GATHERED_AT_MOST,
            "lookups"),
        Row.atLeast(
                3,
                "forwarded lookups/s at saturation with ?position= already met (beside: the same"
                    + " without)",
                withPosition.matview(LoadResult::throughput),
                withPosition.baseline(LoadResult::throughput),
                "req/s",
                0.95)
            .boundedBy(
                "the asking instance waits for the owner's answer without a thread: its request"
                    + " goes asynchronous and the async peers' client carries the exchange"),
        Row.info(
            3,
            "both instances' CPU time per forwarded lookup at saturation with ?position= (beside:"
                + " without)",
            withPosition.matviewCpuMicros(),
            withPosition.baselineCpuMicros(),
            "µs"));
  }

  /**
   * {@code paths}, each with {@code ?position=} and the position its answer through {@code asked}
   * carries, so that the bound is already met when the load sends it.
   */
  private static List<String> boundedPaths(AppInstance asked, List<String> paths) {
    HttpProbe http = asked.http().withTimeout(Duration.ofSeconds(5));
    List<String> bounded = new ArrayList<>(paths.size());
    for (String path : paths) {
      HttpProbe.Answer answer = http.get(path);
      String token = answer.header(PositionTokens.HEADER);
      if (answer.status() != 200 || token.isEmpty()) {
        throw new IllegalStateException("No position on " + answer.describe());
      }
      bounded.add(path + "?position=" + HttpProbe.encode(token));
    }
    return bounded;
  }

  /** Up to {@code wanted} keys that {@code asked} answers through {@code owner}. */
  private static List<String> keysOwnedBy(
      AppInstance owner, AppInstance asked, ClusterSpec spec, int wanted) {
    HttpProbe http = asked.http().withTimeout(Duration.ofSeconds(5));
    List<String> owned = new ArrayList<>();
    for (String key : KeySample.customers(spec.customers(), Math.max(wanted * 4, 8))) {
      HttpProbe.Answer answer = http.get("/views/" + Clusters.TABLE_VIEW + "/keys/" + key);
      if (answer.status() == 200
          && owner.hostAndPort().equals(answer.header("Matview-Served-By"))) {
        owned.add(key);
      }
      if (owned.size() >= wanted) {
        break;
      }
    }
    if (owned.isEmpty()) {
      throw new IllegalStateException(owner.name() + " owns none of the keys asked");
    }
    return owned;
  }
}
