package dev.matview.benchmarks.lookups;

import dev.matview.benchmarks.BenchContext;
import dev.matview.benchmarks.Benchmark;
import dev.matview.benchmarks.ClusterSetup;
import dev.matview.benchmarks.Flags;
import dev.matview.benchmarks.Jmh;
import dev.matview.benchmarks.Row;
import dev.matview.processes.KafkaBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * Row 2: JMH with {@code -prof gc} of the in-process lookup path of a cached key, against a raw
 * {@code ReadOnlyKeyValueStore.get} on the same store, of its routing step, against the
 * serialization of the key that the step includes, and of its RocksDB read in Matview's store,
 * against Kafka Streams' own RocksDB store's synchronized {@code get} of the same key.
 */
public final class LookupPathBenchmark implements Benchmark {

  private static final String TOPIC = "path-orders";

  @Override
  public int row() {
    return 2;
  }

  @Override
  public String name() {
    return "lookup-path";
  }

  @Override
  public String title() {
    return "in-process lookup path (JMH)";
  }

  @Override
  public List<Row> run(BenchContext context) throws Exception {
    Flags flags = context.flags();
    KafkaBroker broker = context.broker();
    int keys = Math.max(flags.integer("path-keys", 10_000), 8);
    new ClusterSetup(context).publish(TOPIC, flags.integer("partitions", 4), keys, keys);
    int forks = Jmh.forks(flags);
    Path stateDir = context.dir("lookup-path");
    Map<String, String> properties =
        Map.of(
            InProcessApp.BOOTSTRAP, broker.bootstrapServers(),
            InProcessApp.TOPIC, TOPIC,
            InProcessApp.STATE_DIR, stateDir.toString());
    ChainedOptionsBuilder options = Jmh.options(flags, LookupPathJmh.class);
    Files.createDirectories(stateDir.resolve("tmp"));
    if (forks > 0) {
      options.jvmArgsAppend(
          "-Xmx512m",
          "-Djava.io.tmpdir=" + stateDir.resolve("tmp"),
          "-D" + InProcessApp.BOOTSTRAP + "=" + broker.bootstrapServers(),
          "-D" + InProcessApp.TOPIC + "=" + TOPIC,
          "-D" + InProcessApp.STATE_DIR + "=" + stateDir,
          "-D" + InProcessApp.FORKED + "=true");
    } else {
      properties.forEach(System::setProperty);
    }
    Collection<RunResult> results;
    try {
      results = new Runner(options.build()).run();
    } finally {
      InProcessApp.close();
    }
    RunResult matview = Jmh.find(results, "matview");
    RunResult observed = Jmh.find(results, "observedMatview");
    RunResult raw = Jmh.find(results, "raw");
    RunResult route = Jmh.find(results, "route");
    RunResult serializeKey = Jmh.find(results, "serializeKey");
    RunResult directRead = Jmh.find(results, "directRead");
    RunResult lockedRead = Jmh.find(results, "lockedRead");
    RunResult directReadOnTwo = Jmh.find(results, "directReadOnTwoThreads");
    RunResult lockedReadOnTwo = Jmh.find(results, "lockedReadOnTwoThreads");
    RunResult interactiveQuery = Jmh.find(results, "interactiveQuery");
    RunResult interactiveQueryOnTwo = Jmh.find(results, "interactiveQueryOnTwoThreads");
    int pointReadKeys = Math.max(flags.integer("point-read-keys", 250_000), 1);
    Map<String, Double> pointReads = pointReads(flags, pointReadKeys, context.dir("point-read"));
    List<Row> rows = new ArrayList<>();
    rows.add(
        Row.atMost(2, "lookup of a cached key", Jmh.score(matview), Jmh.score(raw), "ns/op", 1.5)
            .boundedBy("goal met: a RocksDB read by handle, no lock, no metadata call"));
    rows.add(
        Row.info(
            2, "bytes allocated per lookup", Jmh.allocated(matview), Jmh.allocated(raw), "B/op"));
    rows.add(
        Row.info(
                2,
                "lookup of a cached key under a request's observation, Boot's ObservationRegistry"
                    + " without a tracer (beside: unobserved)",
                Jmh.score(observed),
                Jmh.score(matview),
                "ns/op")
            .boundedBy(
                "without a tracer Matview does not observe a lookup, which its matview.lookups"
                    + " timer times already; row 13 gives lookups/s over HTTP with and without a"
                    + " registry"));
    rows.add(
        Row.info(
            2,
            "bytes allocated per lookup under a request's observation (beside: unobserved)",
            Jmh.allocated(observed),
            Jmh.allocated(matview),
            "B/op"));
    rows.add(
        Row.addedAtMost(
                2,
                "bytes allocated by the routing step of a local lookup (beside: serializing the key"
                    + " alone)",
                Jmh.allocated(route),
                Jmh.allocated(serializeKey),
                "B/op",
                1)
            .boundedBy("goal: nothing allocated beyond the key's bytes"));
    rows.add(
        Row.info(
            2,
            "the routing step of a local lookup (beside: serializing the key alone)",
            Jmh.score(route),
            Jmh.score(serializeKey),
            "ns/op"));
    rows.add(
        Row.info(
                2,
                "RocksDB read of a lookup, by handle in Matview's store, without a lock (beside:"
                    + " Kafka Streams' RocksDBStore's synchronized get)",
                Jmh.score(directRead),
                Jmh.score(lockedRead),
                "ns/op")
            .boundedBy(
                "a RocksDB read through JNI in both; Kafka's get also takes the store's monitor"));
    rows.add(
        Row.info(
                2,
                "the same read on two threads at once",
                Jmh.score(directReadOnTwo),
                Jmh.score(lockedReadOnTwo),
                "ns/op")
            .boundedBy("the get's monitor, which the two threads take in turn"));
    rows.add(
        Row.info(
                2,
                "RocksDB read of a lookup, by handle in Matview's store (beside: the same key through"
                    + " Kafka Streams' interactive queries, IQv2's KeyQuery, on its own store)",
                Jmh.score(directRead),
                Jmh.score(interactiveQuery),
                "ns/op")
            .boundedBy(
                "IQv2 adds its request, task lookup and metered store; up to Kafka 4.3 the monitor"
                    + " too, from 4.4 a ReadOnlyView without it"));
    rows.add(
        Row.info(
                2,
                "the same read on two threads at once (beside: IQv2)",
                Jmh.score(directReadOnTwo),
                Jmh.score(interactiveQueryOnTwo),
                "ns/op")
            .boundedBy("no monitor on either side from Kafka 4.4"));
    for (String layout : List.of(PointReadJmh.FLUSHED, PointReadJmh.COMPACTED)) {
      rows.add(
          Row.info(
                  2,
                  "RocksDB read of a random key of "
                      + pointReadKeys
                      + " in "
                      + (layout.equals(PointReadJmh.FLUSHED)
                          ? "flushed level-0 files"
                          : "one compacted run")
                      + ", Matview's bound vs Kafka Streams' own settings",
                  pointReads.getOrDefault(layout + "/" + PointReadJmh.BOUNDED, Double.NaN),
                  pointReads.getOrDefault(layout + "/" + PointReadJmh.KAFKA_DEFAULTS, Double.NaN),
                  "ns/op")
              .boundedBy("index and filter blocks read through the bound's shared cache"));
    }
    return rows;
  }

  /**
   * The time of a point read by layout and settings ({@code flushed/bounded}), from {@link
   * PointReadJmh}.
   */
  private static Map<String, Double> pointReads(Flags flags, int keys, Path dir) throws Exception {
    Files.createDirectories(dir);
    ChainedOptionsBuilder options =
        Jmh.options(flags, PointReadJmh.class)
            .param("keys", Integer.toString(keys))
            .param("settings", PointReadJmh.KAFKA_DEFAULTS, PointReadJmh.BOUNDED);
    if (Jmh.forks(flags) > 0) {
      options.jvmArgsAppend("-Xmx512m", "-Djava.io.tmpdir=" + dir);
    }
    Map<String, Double> scores = new HashMap<>();
    for (RunResult result : new Runner(options.build()).run()) {
      String layout = result.getParams().getParam("layout");
      scores.put(layout + "/" + result.getParams().getParam("settings"), Jmh.score(result));
    }
    return scores;
  }
}
