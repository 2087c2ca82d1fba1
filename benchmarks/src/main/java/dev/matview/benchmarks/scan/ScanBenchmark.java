package dev.matview.benchmarks.scan;

import dev.matview.benchmarks.BenchContext;
import dev.matview.benchmarks.Benchmark;
import dev.matview.benchmarks.ClusterSpec;
import dev.matview.benchmarks.Clusters;
import dev.matview.benchmarks.Flags;
import dev.matview.benchmarks.LoadedCluster;
import dev.matview.benchmarks.Row;
import dev.matview.benchmarks.Stats;
import dev.matview.benchmarks.process.AppInstance;
import dev.matview.processes.http.HttpProbe;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Row 4: every key of a view read in one streamed response, and through cursors in pages of 1,000,
 * from one of two instances, so that the slices of the other's partitions are forwarded; against a
 * raw range over each instance's local stores, timed inside the instance.
 */
public final class ScanBenchmark implements Benchmark {

  private static final String TITLE = "full scans, streamed and through cursors";

  private static final StreamedScanReader READER = new StreamedScanReader();

  @Override
  public int row() {
    return 4;
  }

  @Override
  public String name() {
    return "scan";
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
    warmUp(context, cluster);
    int rounds = context.flags().integer("scan-rounds", 3);
    Figures table = new Figures();
    Figures windows = new Figures();
    for (int round = 1; round <= rounds; round++) {
      round(context, cluster, table, windows);
    }
    Row tableStream =
        Row.atLeast(
                4,
                "table scan keys/s streamed (" + spec.customers() + " keys)",
                Stats.median(table.streams),
                Stats.median(table.raw),
                "keys/s",
                0.5)
            .boundedBy(
                "RocksDB and one JSON line per key, on the instance that owns it; one response, the other instance's slices passed on as lines");
    Row windowStream =
        Row.atLeast(
                4,
                "window scan windows/s streamed",
                Stats.median(windows.streams),
                Stats.median(windows.raw),
                "windows/s",
                0.5)
            .boundedBy(
                "key-then-start order: an iterator per window store segment, merged; one JSON line per window, its bounds formatted once, by its owner");
    Row perKey =
        Row.atLeast(
                4,
                "streamed window scan ratio over streamed table scan ratio",
                windowStream.ratio(),
                tableStream.ratio(),
                "",
                1.0)
            .boundedBy("goal: window scans no worse per key");
    Row tablePages =
        Row.info(
            4,
            "table scan keys/s in pages of 1,000",
            Stats.median(table.scans),
            Stats.median(table.raw),
            "keys/s");
    Row windowPages =
        Row.info(
            4,
            "window scan windows/s in pages of 1,000",
            Stats.median(windows.scans),
            Stats.median(windows.raw),
            "windows/s");
    return List.of(tableStream, windowStream, perKey, tablePages, windowPages);
  }

  /**
   * Unrecorded rounds of every scan: at least {@code --scan-warm-ups}, then more until both
   * streamed scans' rates changed by at most {@code --scan-warmup-tolerance} from their previous
   * round, {@code --scan-max-warm-ups} at most. A streamed scan runs through more code than a raw
   * range, and on two cores the JIT compiles it over several rounds of a second each, with plateaus
   * between its tiers that two rounds alone can take for the end.
   */
  private static void warmUp(BenchContext context, LoadedCluster cluster) throws Exception {
    int least = context.flags().integer("scan-warm-ups", 8);
    int most = Math.max(least, context.flags().integer("scan-max-warm-ups", 14));
    double tolerance = context.flags().decimal("scan-warmup-tolerance", 0.05);
    Figures table = new Figures();
    Figures windows = new Figures();
    for (int round = 1; round <= most; round++) {
      context.log(TITLE + ": warm-up round " + round + ", not recorded");
      round(context, cluster, table, windows);
      if (round >= least
          && Stats.settled(table.streams, tolerance)
          && Stats.settled(windows.streams, tolerance)) {
        return;
      }
    }
    context.note(
        TITLE,
        "the streamed scans' rates still changed by more than "
            + Math.round(tolerance * 100)
            + " % between the last two of "
            + most
            + " warm-up rounds");
  }

  /**
   * One round of every scan, the table's and the windows' raw range, pages and stream, their rates
   * added to {@code table} and {@code windows}.
   */
  private static void round(
      BenchContext context, LoadedCluster cluster, Figures table, Figures windows)
      throws Exception {
    table.raw.add(raw(context, cluster, Clusters.TABLE_VIEW));
    table.scans.add(scan(context, cluster.instance(0), "/views/" + Clusters.TABLE_VIEW + "/keys"));
    windows.raw.add(raw(context, cluster, Clusters.WINDOW_VIEW));
    windows.scans.add(
        scan(context, cluster.instance(0), "/views/" + Clusters.WINDOW_VIEW + "/windows"));
    table.streams.add(
        stream(context, cluster.instance(0), "/views/" + Clusters.TABLE_VIEW + "/keys"));
    windows.streams.add(
        stream(context, cluster.instance(0), "/views/" + Clusters.WINDOW_VIEW + "/windows"));
  }

  /** Keys a second of a raw range over the local stores of both instances, one after the other. */
  private static double raw(BenchContext context, LoadedCluster cluster, String view)
      throws Exception {
    long keys = 0;
    long nanos = 0;
    for (int i = 0; i < cluster.spec().instances(); i++) {
      JsonNode figures =
          cluster
              .instance(i)
              .http()
              .withTimeout(Duration.ofMinutes(5))
              .get("/baseline/" + view + "/raw-scan")
              .json();
      keys += figures.get("keys").asLong();
      nanos += figures.get("nanos").asLong();
    }
    double perSecond = keys / (nanos / 1e9);
    context.log(
        TITLE
            + ": raw range of "
            + view
            + ": "
            + keys
            + " items, "
            + Stats.format(perSecond, "/s"));
    return perSecond;
  }

  /** Items a second of a scan that follows every cursor from the first page to the last. */
  private static double scan(BenchContext context, AppInstance instance, String path)
      throws Exception {
    HttpProbe http = instance.http().withTimeout(Duration.ofMinutes(1));
    long items = 0;
    long started = System.nanoTime();
    String cursor = null;
    do {
      String query =
          "?limit=1000"
              + (cursor != null
                  ? "&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8)
                  : "");
      HttpProbe.Answer page = http.get(path + query);
      if (page.status() != 200) {
        throw new IllegalStateException(path + " answered " + page.status() + ": " + page.body());
      }
      JsonNode body = page.json();
      items += body.get("items").size();
      JsonNode next = body.get("nextCursor");
      cursor = next == null || next.isNull() ? null : next.asString();
    } while (cursor != null);
    double perSecond = items / ((System.nanoTime() - started) / 1e9);
    context.log(
        TITLE + ": scan of " + path + ": " + items + " items, " + Stats.format(perSecond, "/s"));
    return perSecond;
  }

  /** Items a second of one streamed scan of the whole range. */
  private static double stream(BenchContext context, AppInstance instance, String path)
      throws Exception {
    long started = System.nanoTime();
    long items = READER.items(instance.http().uri(path));
    double perSecond = items / ((System.nanoTime() - started) / 1e9);
    context.log(
        TITLE + ": stream of " + path + ": " + items + " items, " + Stats.format(perSecond, "/s"));
    return perSecond;
  }

  /** The figures of one kind of scan over the rounds. */
  private static final class Figures {

    private final List<Double> raw = new ArrayList<>();

    private final List<Double> scans = new ArrayList<>();

    private final List<Double> streams = new ArrayList<>();
  }
}
