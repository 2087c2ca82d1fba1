package dev.matview.benchmarks;

import dev.matview.processes.ChildJvm;
import dev.matview.processes.KafkaBroker;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.jspecify.annotations.Nullable;

/**
 * What every benchmark of one run shares: the flags, the work dir, one broker started on first use,
 * and the notes each benchmark leaves for the report.
 */
public final class BenchContext implements AutoCloseable {

  private final Flags flags;

  private final Path workDir;

  private final PrintStream out;

  private final Map<String, List<String>> notes = new LinkedHashMap<>();

  private final Map<ClusterSpec, CompletableFuture<LoadedCluster>> clusters = new LinkedHashMap<>();

  private final Object brokerLock = new Object();

  private @Nullable KafkaBroker broker;

  /**
   * A context of a run with {@code flags}, working under {@code workDir}, logging to {@code out}.
   */
  public BenchContext(Flags flags, Path workDir, PrintStream out) {
    this.flags = flags;
    this.workDir = workDir.toAbsolutePath();
    this.out = out;
  }

  /** The run's flags. */
  public Flags flags() {
    return this.flags;
  }

  /** The folder under the work dir where {@code name} keeps its files. */
  public Path dir(String name) {
    return this.workDir.resolve(name);
  }

  /** The run's broker, started on first use. */
  public KafkaBroker broker() {
    synchronized (this.brokerLock) {
      if (this.broker == null) {
        log("starting the Kafka broker");
        KafkaBroker started =
            new KafkaBroker(this.workDir, this.workDir.resolve("logs").resolve("kafka.log"));
        started.start();
        this.broker = started;
      }
      return this.broker;
    }
  }

  /**
   * Starts loading the instances of {@code spec} in the background, so that a later {@link
   * #cluster(ClusterSpec)} finds them ready: for short runs such as the smoke test, whose start-ups
   * then overlap.
   */
  public void prepare(ClusterSpec spec) {
    future(spec, true);
  }

  /**
   * The loaded instances of {@code spec}: the ones an earlier benchmark of this run started or
   * {@link #prepare(ClusterSpec) prepared}, else new ones.
   */
  public LoadedCluster cluster(ClusterSpec spec) {
    return join(future(spec, false));
  }

  /** Kills the instances of {@code spec}, so that no later benchmark uses them. */
  public void discard(ClusterSpec spec) {
    CompletableFuture<LoadedCluster> cluster;
    synchronized (this.clusters) {
      cluster = this.clusters.remove(spec);
    }
    if (cluster != null) {
      join(cluster).close();
    }
  }

  private CompletableFuture<LoadedCluster> future(ClusterSpec spec, boolean background) {
    CompletableFuture<LoadedCluster> cluster;
    boolean created = false;
    synchronized (this.clusters) {
      cluster = this.clusters.get(spec);
      if (cluster == null) {
        cluster = new CompletableFuture<>();
        this.clusters.put(spec, cluster);
        created = true;
      }
    }
    if (created) {
      CompletableFuture<LoadedCluster> starting = cluster;
      Runnable start =
          () -> {
            try {
              starting.complete(LoadedCluster.start(this, spec));
            } catch (RuntimeException ex) {
              starting.completeExceptionally(ex);
            }
          };
      if (background) {
        Thread thread = new Thread(start, "prepare-" + spec.name());
        thread.setDaemon(true);
        thread.start();
      } else {
        start.run();
      }
    }
    return cluster;
  }

  private static LoadedCluster join(CompletableFuture<LoadedCluster> cluster) {
    try {
      return cluster.join();
    } catch (CompletionException ex) {
      throw (ex.getCause() instanceof RuntimeException runtime) ? runtime : ex;
    }
  }

  /**
   * The JVM options of the benchmark app's instances: {@code --app-jvm-options}, space-separated.
   */
  public List<String> appJvmOptions() {
    return List.of(this.flags.text("app-jvm-options", "-Xmx512m").trim().split("\\s+"));
  }

  /** Writes a progress line. */
  public void log(String message) {
    this.out.println(LocalTime.now().truncatedTo(ChronoUnit.SECONDS) + "  " + message);
  }

  /** Keeps {@code note} for the report, under the benchmark {@code title}. */
  public synchronized void note(String title, String note) {
    this.notes.computeIfAbsent(title, (key) -> new ArrayList<>()).add(note);
    log(title + ": " + note);
  }

  /** Every note, by benchmark. */
  public synchronized Map<String, List<String>> notes() {
    return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(this.notes));
  }

  @Override
  public void close() {
    List<CompletableFuture<LoadedCluster>> all;
    synchronized (this.clusters) {
      all = List.copyOf(this.clusters.values());
      this.clusters.clear();
    }
    for (CompletableFuture<LoadedCluster> cluster : all) {
      if (cluster.isDone() && !cluster.isCompletedExceptionally()) {
        cluster.join().close();
      }
    }
    ChildJvm.killAll();
    synchronized (this.brokerLock) {
      if (this.broker != null) {
        this.broker.close();
        this.broker = null;
      }
    }
  }
}
