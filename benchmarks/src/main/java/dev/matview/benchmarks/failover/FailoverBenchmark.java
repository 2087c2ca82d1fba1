package dev.matview.benchmarks.failover;

import dev.matview.benchmarks.BenchContext;
import dev.matview.benchmarks.Benchmark;
import dev.matview.benchmarks.ClusterSpec;
import dev.matview.benchmarks.Clusters;
import dev.matview.benchmarks.Flags;
import dev.matview.benchmarks.KeySample;
import dev.matview.benchmarks.LoadedCluster;
import dev.matview.benchmarks.Row;
import dev.matview.benchmarks.Stats;
import dev.matview.benchmarks.process.AppInstance;
import dev.matview.processes.http.HttpProbe;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.awaitility.Awaitility;
import tools.jackson.databind.JsonNode;

/**
 * Row 8: two instances, the owner of a key killed with SIGKILL, and the time from the kill until
 * the survivor answers that key again: stale ({@code allowStale=true}) and exact; once with a
 * standby replica of every partition, once without.
 */
public final class FailoverBenchmark implements Benchmark {

  private static final String TITLE = "failover after kill -9 of an owner";

  @Override
  public int row() {
    return 8;
  }

  @Override
  public String name() {
    return "failover";
  }

  @Override
  public String title() {
    return TITLE;
  }

  @Override
  public List<ClusterSpec> clusters(Flags flags) {
    return List.of(Clusters.twoInstances(flags), alone(flags));
  }

  /** Two instances without standbys, holding {@code --failover-keys} keys. */
  private static ClusterSpec alone(Flags flags) {
    long keys = flags.integer("failover-keys", 100_000);
    return new ClusterSpec(
        "failover-alone",
        2,
        keys,
        keys,
        Set.of(Clusters.TABLE_VIEW),
        Map.of("matview.standby-replicas", "0"));
  }

  @Override
  public List<Row> run(BenchContext context) throws Exception {
    ClusterSpec shared = Clusters.twoInstances(context.flags());
    Times standby;
    try {
      standby = failover(context, context.cluster(shared), true);
    } finally {
      context.discard(shared);
    }
    ClusterSpec alone = alone(context.flags());
    Times withoutStandby;
    try {
      withoutStandby = failover(context, context.cluster(alone), false);
    } finally {
      context.discard(alone);
    }
    return List.of(
        Row.within(
                8,
                "stale answer after the kill, with a standby",
                standby.stale,
                withoutStandby.stale,
                "s",
                1.0)
            .boundedBy("the forward to the dead owner failing"),
        Row.info(
                8,
                "exact answer after the kill, with a standby",
                standby.exact,
                withoutStandby.exact,
                "s")
            .boundedBy("session timeout, then rebalance"),
        Row.info(
                8,
                "stale answer after the kill, without a standby (beside: with)",
                withoutStandby.stale,
                standby.stale,
                "s")
            .boundedBy("session timeout, rebalance and restore"),
        Row.info(
                8,
                "exact answer after the kill, without a standby (beside: with)",
                withoutStandby.exact,
                standby.exact,
                "s")
            .boundedBy("session timeout, rebalance and restore"));
  }

  private Times failover(BenchContext context, LoadedCluster cluster, boolean withStandby)
      throws Exception {
    ClusterSpec spec = cluster.spec();
    AppInstance survivor = cluster.instance(0);
    AppInstance owner = cluster.instance(1);
    if (withStandby) {
      awaitStandbysCaughtUp(survivor, context.flags().integer("partitions", 4));
    }
    String key = keyOwnedBy(owner, survivor, spec);
    String path = "/views/" + Clusters.TABLE_VIEW + "/keys/" + key;
    HttpProbe asked = survivor.http().withTimeout(Duration.ofSeconds(3));
    long killed = System.nanoTime();
    owner.kill();
    double stale = -1;
    double exact = -1;
    long deadline = killed + Duration.ofMinutes(3).toNanos();
    while ((stale < 0 || exact < 0) && System.nanoTime() < deadline) {
      if (stale < 0 && answers(asked, path + "?allowStale=true")) {
        stale = (System.nanoTime() - killed) / 1e9;
      }
      if (exact < 0 && answers(asked, path)) {
        exact = (System.nanoTime() - killed) / 1e9;
      }
    }
    if (stale < 0 || exact < 0) {
      throw new IllegalStateException(key + " did not answer within 3 minutes of the kill");
    }
    context.note(
        TITLE,
        (withStandby ? "with" : "without")
            + " a standby: stale after "
            + Stats.format(stale, "s")
            + ", exact after "
            + Stats.format(exact, "s"));
    return new Times(stale, exact);
  }

  /** Whether the instance {@code asked} answers {@code path} with the key's value, one order. */
  private static boolean answers(HttpProbe asked, String path) {
    try {
      HttpProbe.Answer answer = asked.get(path);
      return answer.status() == 200 && answer.body().contains("\"value\":1");
    } catch (UncheckedIOException ex) {
      return false;
    }
  }

  private static void awaitStandbysCaughtUp(AppInstance instance, int partitions) {
    Awaitility.await(instance.name() + " holding every partition, active or standby, caught up")
        .atMost(Duration.ofMinutes(3))
        .pollInterval(Duration.ofMillis(250))
        .ignoreExceptions()
        .until(
            () -> {
              JsonNode views =
                  instance.health().json().path("details").path("views").path(Clusters.TABLE_VIEW);
              int caughtUp = 0;
              for (JsonNode partition : views) {
                caughtUp += partition.path("lag").asLong(-1) == 0 ? 1 : 0;
              }
              return caughtUp == partitions;
            });
  }

  private static String keyOwnedBy(AppInstance owner, AppInstance asked, ClusterSpec spec) {
    HttpProbe http = asked.http().withTimeout(Duration.ofSeconds(5));
    for (String key : KeySample.customers(spec.customers(), 200)) {
      HttpProbe.Answer answer = http.get("/views/" + Clusters.TABLE_VIEW + "/keys/" + key);
      if (answer.status() == 200
          && owner.hostAndPort().equals(answer.header("Matview-Served-By"))) {
        return key;
      }
    }
    throw new IllegalStateException(owner.name() + " owns none of 200 keys asked");
  }

  /** Seconds from the kill to the first stale and the first exact answer. */
  private record Times(double stale, double exact) {}
}
