package dev.matview.benchmarks.aggregation;

import dev.matview.benchmarks.BenchContext;
import dev.matview.benchmarks.Benchmark;
import dev.matview.benchmarks.ClusterSetup;
import dev.matview.benchmarks.Flags;
import dev.matview.benchmarks.Row;
import dev.matview.benchmarks.Stats;
import dev.matview.benchmarks.Throughput;
import dev.matview.benchmarks.handwritten.HandWrittenAggregationApp;
import dev.matview.benchmarks.kafka.StreamsProgress;
import dev.matview.benchmarks.process.AppInstance;
import dev.matview.processes.http.HttpProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.awaitility.Awaitility;

/**
 * Row 5: {@code --orders} orders of {@code --customers} customers through {@code
 * revenue-per-customer} until its store holds the final values, against the same topology written
 * by hand as a Spring Boot app ({@link HandWrittenAggregationApp}) launched as Matview's instance
 * is, with the same JVM options, without Kafka's record cache and with it; each reads the same
 * topic from the start under an application id of its own.
 */
public final class AggregationBenchmark implements Benchmark {

  private static final String TITLE = "aggregation into revenue-per-customer";

  private static final String TOPIC = "aggregation-orders";

  @Override
  public int row() {
    return 5;
  }

  @Override
  public String name() {
    return "aggregation";
  }

  @Override
  public String title() {
    return TITLE;
  }

  @Override
  public List<Row> run(BenchContext context) throws Exception {
    Flags flags = context.flags();
    long orders = flags.integer("orders", 1_000_000);
    long customers = Math.min(flags.integer("customers", 10_000), orders);
    new ClusterSetup(context).publish(TOPIC, flags.integer("partitions", 4), orders, customers);
    List<Double> baseline = new ArrayList<>();
    List<Double> matview = new ArrayList<>();
    List<Double> cached = new ArrayList<>();
    for (int round = 1; round <= flags.integer("aggregation-rounds", 2); round++) {
      baseline.add(handWritten(context, round, orders, false));
      matview.add(matview(context, round, orders, customers));
      cached.add(handWritten(context, round, orders, true));
    }
    long matviewRecords;
    long cachedRecords;
    try (Admin admin = context.broker().admin()) {
      matviewRecords = changelog(admin, "bench-aggregation-matview-1");
      cachedRecords = changelog(admin, "bench-aggregation-cached-1");
      context.note(
          TITLE,
          "changelog records written in round 1: Matview "
              + matviewRecords
              + ", hand-written without the record cache "
              + changelog(admin, "bench-aggregation-hand-1")
              + ", with it "
              + cachedRecords);
    }
    return List.of(
        Row.atLeast(
                5,
                "orders/s until the store is final (" + orders + " orders)",
                Stats.median(matview),
                Stats.median(baseline),
                "orders/s",
                0.95)
            .boundedBy(
                "two Spring Boot apps on the same JVM flags and Boot's Kafka Streams; each order"
                    + " decoded from JSON twice in both, before and after the repartition topic,"
                    + " and encoded again for it by the baseline only (Matview passes the bytes as"
                    + " read); Matview folding in the record cache what the baseline writes to its"
                    + " store and changelog per order"),
        Row.atLeast(
                5,
                "the same, beside the hand-written app with Kafka's record cache",
                Stats.median(matview),
                Stats.median(cached),
                "orders/s",
                1.00)
            .boundedBy(
                "two Spring Boot apps on the same JVM flags, both folding a key's updates in"
                    + " Kafka's record cache: Matview stamps each re-keyed record with its input"
                    + " offset for positions and tracks what each store partition applied, and"
                    + " passes each order to the repartition topic as the bytes it read, where the"
                    + " baseline encodes it again"),
        Row.info(
            5,
            "changelog records per order, round 1 (beside: the hand-written app with the cache)",
            (double) matviewRecords / orders,
            (double) cachedRecords / orders,
            "records/order"));
  }

  private double handWritten(BenchContext context, int round, long orders, boolean caching)
      throws Exception {
    String name = (caching ? "cached-" : "hand-") + round;
    String applicationId = "bench-aggregation-" + name;
    AppInstance app =
        new ClusterSetup(context)
            .instanceOf(
                HandWrittenAggregationApp.class,
                "aggregation-" + name,
                context.dir("aggregation"),
                applicationId,
                TOPIC,
                context.appJvmOptions(),
                Map.of("bench.caching", Boolean.toString(caching)));
    app.start();
    try {
      double perSecond = measure(context, applicationId, orders, app);
      HttpProbe.Answer health = app.http().get("/actuator/health");
      if (health.status() != 200) {
        throw new IllegalStateException(
            applicationId
                + " should serve /actuator/health as a Spring Boot web app like Matview's, it"
                + " answered "
                + health.status()
                + ": "
                + health.body());
      }
      context.log(
          TITLE
              + ": hand-written round "
              + round
              + (caching ? " with the record cache: " : ": ")
              + Stats.format(perSecond, "orders/s"));
      return perSecond;
    } finally {
      app.kill();
    }
  }

  private double matview(BenchContext context, int round, long orders, long customers)
      throws Exception {
    String applicationId = "bench-aggregation-matview-" + round;
    AppInstance app =
        new ClusterSetup(context)
            .instance(
                "aggregation-matview-" + round,
                context.dir("aggregation"),
                applicationId,
                TOPIC,
                Set.of("revenue-per-customer"),
                context.appJvmOptions(),
                Map.of());
    app.start();
    try {
      double perSecond = measure(context, applicationId, orders, app);
      String answer = app.http().get("/views/revenue-per-customer/keys/customer-0").body();
      long expected = orders / customers;
      if (!answer.contains("\"orders\":" + expected + ",")) {
        throw new IllegalStateException(
            "customer-0 should have " + expected + " orders, Matview answered " + answer);
      }
      context.log(TITLE + ": Matview round " + round + ": " + Stats.format(perSecond, "orders/s"));
      return perSecond;
    } finally {
      app.kill();
    }
  }

  private static long changelog(Admin admin, String applicationId) throws Exception {
    return StreamsProgress.endOffsets(admin, applicationId + "-revenue-per-customer-changelog");
  }

  /**
   * Orders a second from the first committed progress of {@code applicationId}, run by {@code app},
   * to the last.
   */
  private static double measure(
      BenchContext context, String applicationId, long orders, AppInstance app) {
    Throughput throughput = new Throughput();
    long started = System.nanoTime();
    try (Admin admin = context.broker().admin()) {
      Awaitility.await(applicationId + " aggregating " + orders + " orders")
          .atMost(Duration.ofMinutes(10).plusSeconds(orders / 1_000))
          .pollInterval(Duration.ofMillis(200))
          .until(
              () -> {
                app.requireAlive();
                StreamsProgress progress = StreamsProgress.of(admin, applicationId, TOPIC);
                long done =
                    progress.caughtUp() && progress.repartitionEnd() >= orders
                        ? 2 * orders
                        : Math.min(
                            progress.sourceCommitted() + progress.repartitionCommitted(),
                            2 * orders - 1);
                throughput.observe(System.nanoTime(), done, 2 * orders);
                return throughput.complete();
              });
    }
    return throughput.perSecond(System.nanoTime() - started) / 2;
  }
}
