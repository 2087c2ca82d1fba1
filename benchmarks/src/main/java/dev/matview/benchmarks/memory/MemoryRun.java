package dev.matview.benchmarks.memory;

import dev.matview.benchmarks.BenchContext;
import dev.matview.benchmarks.ClusterSetup;
import dev.matview.benchmarks.ClusterSpec;
import dev.matview.benchmarks.kafka.OrdersProducer;
import dev.matview.benchmarks.kafka.StreamsProgress;
import dev.matview.benchmarks.process.AppInstance;
import dev.matview.processes.KafkaBroker;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One instance of the benchmark app over a fresh topic of a load's partitions: it starts on the
 * load's published orders, and once it has processed them all follows a trickle, while its RSS and
 * RocksDB's cache are sampled every second.
 */
final class MemoryRun {

  private static final Duration SAMPLE_INTERVAL = Duration.ofSeconds(1);

  private final BenchContext context;

  private final MemorySettings settings;

  private int runs;

  MemoryRun(BenchContext context, MemorySettings settings) {
    this.context = context;
    this.settings = settings;
  }

  MemoryResult run(MemoryLoad load, boolean bounded) throws Exception {
    this.runs++;
    int partitions = load.partitions();
    String name = "memory-" + load.name() + (bounded ? "-bounded-" : "-unbounded-") + this.runs;
    String topic = name + "-orders";
    KafkaBroker broker = this.context.broker();
    ClusterSetup setup = new ClusterSetup(this.context);
    setup.publish(topic, partitions, load.orders(), load.customers());
    AppInstance app =
        setup.instance(
            name,
            this.context.dir(name),
            "bench-" + name,
            topic,
            ClusterSpec.ALL_VIEWS,
            jvmOptions(),
            properties(bounded));
    Samples samples = new Samples();
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    long started = System.nanoTime();
    app.start();
    sampler.scheduleAtFixedRate(
        () -> samples.take(app), 0, SAMPLE_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    try {
      StreamsProgress.awaitCaughtUp(
          broker, "bench-" + name, topic, load.catchUpBound(), app::requireAlive);
      double catchUp = (System.nanoTime() - started) / 1e9;
      this.context.log(name + ": caught up after " + Math.round(catchUp) + " s; trickling");
      samples.startSteady();
      trickle(broker, topic, load.customers());
      sampler.shutdownNow();
      sampler.awaitTermination(10, TimeUnit.SECONDS);
      ProcessMemory.JvmMemory jvm = ProcessMemory.jvmCommitted(app.pid());
      long disk = ProcessMemory.diskBytes(this.context.dir(name).resolve("state-" + name));
      MemoryResult result = samples.result(partitions, bounded, catchUp, jvm, disk);
      this.context.log(name + ": " + result);
      return result;
    } finally {
      sampler.shutdownNow();
      app.kill();
      broker.deleteTopics(topic, "bench-" + name + "-");
    }
  }

  /**
   * The instances' JVM options with the heap committed and touched at start ({@code -Xms} as {@code
   * -Xmx}, {@code -XX:+AlwaysPreTouch}), so that RSS moves only with native memory, and with native
   * memory tracking on.
   */
  private List<String> jvmOptions() {
    List<String> options = new ArrayList<>(this.settings.jvmOptions());
    options.add("-Xms" + this.settings.heapMegabytes() + "m");
    options.add("-XX:+AlwaysPreTouch");
    options.add("-XX:NativeMemoryTracking=summary");
    return options;
  }

  private Map<String, String> properties(boolean bounded) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("matview.rocksdb.bounded", Boolean.toString(bounded));
    properties.put("matview.rocksdb.total-memory", this.settings.boundMegabytes() + "MB");
    return properties;
  }

  /** Publishes {@code trickle-rate} orders each second for the steady phase. */
  private void trickle(KafkaBroker broker, String topic, long customers)
      throws InterruptedException {
    long end = System.nanoTime() + this.settings.steady().toNanos();
    while (System.nanoTime() < end) {
      long second = System.nanoTime();
      OrdersProducer.publish(
          broker.bootstrapServers(), topic, this.settings.trickleRate(), customers);
      long rest = TimeUnit.SECONDS.toNanos(1) - (System.nanoTime() - second);
      if (rest > 0) {
        TimeUnit.NANOSECONDS.sleep(rest);
      }
    }
  }

  /** The samples of one run, taken on the sampler's thread and read once it has stopped. */
  private static final class Samples {

    private long peakRss;

    private long steadyMinRss = Long.MAX_VALUE;

    private long steadyMaxRss;

    private double maxCache = Double.NaN;

    private double maxStores = Double.NaN;

    private volatile boolean steady;

    synchronized void take(AppInstance app) {
      try {
        long rss = ProcessMemory.rssBytes(app.pid());
        this.peakRss = Math.max(this.peakRss, rss);
        if (this.steady) {
          this.steadyMinRss = Math.min(this.steadyMinRss, rss);
          this.steadyMaxRss = Math.max(this.steadyMaxRss, rss);
        }
        JsonNode rocksdb = rocksdb(app);
        if (rocksdb != null) {
          this.maxCache = max(this.maxCache, rocksdb.path("usedBytes").asDouble());
          this.maxStores = max(this.maxStores, rocksdb.path("openStores").asDouble());
        }
      } catch (IOException | RuntimeException ex) {
        // The instance is starting or gone: this second has no sample.
      }
    }

    void startSteady() {
      this.steady = true;
    }

    synchronized MemoryResult result(
        int partitions, boolean bounded, double catchUp, ProcessMemory.JvmMemory jvm, long disk) {
      return new MemoryResult(
          partitions,
          bounded,
          catchUp,
          this.peakRss,
          this.steadyMinRss == Long.MAX_VALUE ? 0 : this.steadyMinRss,
          this.steadyMaxRss,
          this.maxCache,
          this.maxStores,
          jvm.totalBytes(),
          jvm.largest(32L * 1024 * 1024),
          disk);
    }

    private static double max(double current, double value) {
      return Double.isNaN(current) ? value : Math.max(current, value);
    }

    private static @Nullable JsonNode rocksdb(AppInstance app) {
      JsonNode rocksdb =
          app.http()
              .withTimeout(Duration.ofSeconds(2))
              .get("/actuator/health/matview")
              .json()
              .path("details")
              .path("rocksdb");
      return rocksdb.isObject() ? rocksdb : null;
    }
  }
}
