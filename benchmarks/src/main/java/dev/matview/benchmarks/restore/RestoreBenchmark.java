package dev.matview.benchmarks.restore;

import dev.matview.benchmarks.BenchContext;
import dev.matview.benchmarks.Benchmark;
import dev.matview.benchmarks.ClusterSetup;
import dev.matview.benchmarks.ClusterSpec;
import dev.matview.benchmarks.Clusters;
import dev.matview.benchmarks.Flags;
import dev.matview.benchmarks.Row;
import dev.matview.benchmarks.Stats;
import dev.matview.benchmarks.Throughput;
import dev.matview.benchmarks.kafka.StreamsProgress;
import dev.matview.benchmarks.process.AppInstance;
import dev.matview.processes.ChildJvm;
import dev.matview.processes.http.HttpProbe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.admin.Admin;
import org.awaitility.Awaitility;
import tools.jackson.databind.JsonNode;

/**
 * Row 6: an instance with an empty state dir restores a view of {@code --keys} keys from its
 * changelog (the instance of row 1, killed first), against a plain consumer reading that changelog
 * in the benchmark's warm JVM; beside it, the same consumer in a fresh JVM of its own and Kafka
 * Streams alone restoring the changelog without Matview. Matview's rate runs from the first restore
 * progress its health shows to the last.
 */
public final class RestoreBenchmark implements Benchmark {

  private static final String TITLE = "restore from the changelog";

  @Override
  public int row() {
    return 6;
  }

  @Override
  public String name() {
    return "restore";
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
    ClusterSpec spec = Clusters.oneInstance(context.flags());
    context.cluster(spec);
    context.discard(spec);
    String changelog = spec.applicationId() + "-" + Clusters.TABLE_VIEW + "-changelog";
    long records;
    try (Admin admin = context.broker().admin()) {
      records = StreamsProgress.endOffsets(admin, changelog);
    }
    context.log(TITLE + ": " + changelog + " holds " + records + " records");
    double consumer =
        ChangelogReader.read(
            context.broker().bootstrapServers(), changelog, Duration.ofMinutes(10));
    context.log(TITLE + ": plain consumer: " + Stats.format(consumer, "records/s"));
    double coldConsumer = readInFreshJvm(context, changelog);
    context.log(
        TITLE + ": plain consumer in a fresh JVM: " + Stats.format(coldConsumer, "records/s"));
    double handWritten = restoreByHand(context, changelog);
    context.log(TITLE + ": Kafka Streams alone: " + Stats.format(handWritten, "records/s"));
    AppInstance restoring =
        new ClusterSetup(context).instance(spec, "restore-1", context.dir("restore"));
    long started = System.nanoTime();
    restoring.start();
    Throughput throughput = new Throughput();
    try {
      Awaitility.await(restoring.name() + " restoring " + changelog)
          .atMost(Duration.ofMinutes(10))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> observe(restoring, throughput, records));
    } finally {
      restoring.kill();
    }
    double matview = throughput.perSecond(System.nanoTime() - started);
    context.note(
        TITLE,
        "from the restoring JVM's start to its health UP: "
            + Stats.format((System.nanoTime() - started) / 1e9, "s")
            + " for "
            + records
            + " records");
    return List.of(
        Row.atLeast(
                6,
                "records/s restored (" + records + " records)",
                matview,
                consumer,
                "records/s",
                0.7)
            .boundedBy("RocksDB writes, which the consumer does not do"),
        Row.info(
                6,
                "the same, against the plain consumer in a fresh JVM of its own",
                matview,
                coldConsumer,
                "records/s")
            .boundedBy("both pay a JVM that compiles its code as it reads"),
        Row.info(
                6,
                "the same, against Kafka Streams alone restoring the changelog into RocksDB",
                matview,
                handWritten,
                "records/s")
            .boundedBy(
                "the same restore path: Kafka Streams' changelog reader and RocksDB writes"));
  }

  /**
   * Row 6's baseline again, in a JVM started for it with the restoring instance's options, which
   * compiles the consumer's code while it reads as the restoring instance does.
   */
  private static double readInFreshJvm(BenchContext context, String changelog) throws IOException {
    return rateInChildJvm(
        context,
        "changelog-reader",
        ChangelogReader.class,
        List.of(
            "--bootstrap-servers=" + context.broker().bootstrapServers(), "--topic=" + changelog));
  }

  /**
   * Kafka Streams alone restoring the changelog, in a JVM of its own with the instance's options.
   */
  private static double restoreByHand(BenchContext context, String changelog) throws IOException {
    Path dir = context.dir("hand-written-restore");
    return rateInChildJvm(
        context,
        "hand-written-restore",
        HandWrittenRestore.class,
        List.of(
            "--bootstrap-servers=" + context.broker().bootstrapServers(),
            "--topic=" + changelog,
            "--application-id=bench-restore-hand",
            "--state-dir=" + dir.resolve("state")));
  }

  /**
   * Runs {@code mainClass} with {@code arguments} and {@code --out}, and reads the rate it wrote.
   */
  private static double rateInChildJvm(
      BenchContext context, String name, Class<?> mainClass, List<String> arguments)
      throws IOException {
    Path dir = context.dir(name);
    Path out = dir.resolve("records-per-second.txt");
    List<String> withOut = new ArrayList<>(arguments);
    withOut.add("--out=" + out);
    ChildJvm jvm = new ChildJvm(name, context.appJvmOptions(), mainClass, withOut, dir);
    return Double.parseDouble(
        Files.readString(jvm.runUntilItWrites(out, Duration.ofMinutes(11))).trim());
  }

  /**
   * Takes in the restore progress the instance's health shows; true once it is UP. A poll that sees
   * every record restored before the health is UP is no progress to time from: when the first poll
   * with progress already sees all of it, the rate runs from the JVM's start.
   */
  private static boolean observe(AppInstance instance, Throughput throughput, long records) {
    instance.requireAlive();
    HttpProbe.Answer health;
    try {
      health = instance.health();
    } catch (UncheckedIOException ex) {
      return false;
    }
    long now = System.nanoTime();
    if (health.status() == 200) {
      throughput.observe(now, records, records);
      return true;
    }
    JsonNode partitions = health.json().path("details").path("views").path(Clusters.TABLE_VIEW);
    long restored = 0;
    for (JsonNode partition : partitions) {
      restored += partition.path("currentOffset").asLong(0);
    }
    if (restored < records) {
      throughput.observe(now, restored, records);
    }
    return false;
  }
}
