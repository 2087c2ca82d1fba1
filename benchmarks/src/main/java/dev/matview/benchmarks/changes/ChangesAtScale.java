package dev.matview.benchmarks.changes;

import dev.matview.benchmarks.BenchContext;
import dev.matview.benchmarks.ClusterSpec;
import dev.matview.benchmarks.Clusters;
import dev.matview.benchmarks.Flags;
import dev.matview.benchmarks.LoadedCluster;
import dev.matview.benchmarks.process.AppInstance;
import dev.matview.query.peer.PeerClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.kafka.common.utils.Utils;

/**
 * Row 11 at scale (issue 48): {@code --changes-scale-keys} (10,000) streams, one per key, and
 * {@code --changes-scale-view-streams} (100) of the whole view, open on one instance while {@code
 * --changes-scale-rate} (2,000) orders/s arrive on those keys for {@code --changes-scale-seconds}
 * (30) after {@code --changes-scale-warmup-seconds} (10); with the heap and threads they cost, and
 * the rate at which the instance catches up a backlog of {@code --changes-scale-backlog} (200,000)
 * orders with them open against none; then the same streams on the first of two instances, the keys
 * the second owns relayed, as many as one instance relays from one owner ({@link
 * PeerClient#MAX_RELAYED_STREAMS_PER_INSTANCE}, less the view streams).
 */
final class ChangesAtScale {

  /** The commit interval of the instances, against which the latency goal is set. */
  static final int COMMIT_INTERVAL_MS = 1_000;

  /** Events that may wait for a slow client: above a burst of Kafka Streams' 1,000 records. */
  private static final int BUFFER = 5_000;

  private static final String VIEW = Clusters.ORDER_VIEW;

  private final BenchContext context;

  private final Flags flags;

  private final SendClock clock = new SendClock();

  ChangesAtScale(BenchContext context) {
    this.context = context;
    this.flags = context.flags();
  }

  /** The one instance of the first part and the two of the relayed part. */
  static List<ClusterSpec> clusters(Flags flags) {
    return List.of(spec(flags, "changes-scale", 1), spec(flags, "changes-relay", 2));
  }

  private static ClusterSpec spec(Flags flags, String name, int instances) {
    int streams = keys(flags) + views(flags);
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("management.endpoints.web.exposure.include", "health,metrics");
    properties.put("server.tomcat.max-connections", Integer.toString(streams + 1_000));
    properties.put("server.jetty.max-connections", Integer.toString(streams + 1_000));
    properties.put("matview.changes.max-streams", Integer.toString(streams + 1_000));
    properties.put("matview.changes.buffer", Integer.toString(BUFFER));
    properties.put(
        "spring.kafka.streams.properties.commit.interval.ms", Integer.toString(COMMIT_INTERVAL_MS));
    return new ClusterSpec(
        name,
        instances,
        keys(flags),
        keys(flags),
        Set.of(Clusters.ORDER_VIEW),
        Map.copyOf(properties),
        List.of(flags.text("changes-scale-jvm-options", "-Xmx3g").trim().split("\\s+")));
  }

  /** The streams on one instance: their load, their cost, and the stream thread's rate. */
  Single single() throws Exception {
    ClusterSpec spec = clusters(this.flags).get(0);
    try {
      AppInstance app = this.context.cluster(spec).instance(0);
      List<String> keys = keyNames();
      BacklogCatchUp backlog =
          new BacklogCatchUp(this.context.broker().bootstrapServers(), spec.topic(), VIEW);
      long orders = this.flags.integer("changes-scale-backlog", 200_000);
      double before = backlog.run(app, keys, orders);
      HeapHistogram heapBefore = HeapHistogram.of(app.pid());
      double threadsBefore = AppMetrics.value(app, "jvm.threads.live");
      ScaleLoad.Measured load;
      HeapHistogram heapOpen;
      double threadsOpen;
      double with;
      double openAfterBacklog;
      try (ScaleStreams streams = new ScaleStreams(app, VIEW, this.clock)) {
        streams.open(keys, Set.of(), views(this.flags));
        load = load(spec, streams, keys, Set.of());
        heapOpen = HeapHistogram.of(app.pid());
        threadsOpen = AppMetrics.value(app, "jvm.threads.live");
        with = backlog.run(app, keys, orders);
        openAfterBacklog = AppMetrics.value(app, "matview.changes.streams");
      }
      AppMetrics.awaitStreams(app, 0, Duration.ofSeconds(60));
      double after = backlog.run(app, keys, orders);
      return new Single(
          load,
          keys.size() + views(this.flags),
          heapBefore.totalBytes(),
          heapOpen.totalBytes(),
          threadsBefore,
          threadsOpen,
          orders,
          with,
          (before + after) / 2,
          (long) openAfterBacklog);
    } finally {
      this.context.discard(spec);
    }
  }

  /** The streams on the first of two instances, the keys that the second owns relayed. */
  Relayed relayed() throws Exception {
    ClusterSpec spec = clusters(this.flags).get(1);
    try {
      LoadedCluster cluster = this.context.cluster(spec);
      AppInstance entry = cluster.instance(0);
      Set<String> elsewhere = ownedElsewhere(entry, keyNames());
      List<String> keys = withinRelayBound(keyNames(), elsewhere);
      Set<String> relayed = new HashSet<>(keys);
      relayed.retainAll(elsewhere);
      try (ScaleStreams streams = new ScaleStreams(entry, VIEW, this.clock)) {
        streams.open(keys, relayed, views(this.flags));
        return new Relayed(load(spec, streams, keys, relayed), relayed.size(), keys.size());
      }
    } finally {
      this.context.discard(spec);
    }
  }

  private ScaleLoad.Measured load(
      ClusterSpec spec, ScaleStreams streams, List<String> keys, Set<String> relayed) {
    return new ScaleLoad(this.context.broker().bootstrapServers(), spec.topic(), this.clock)
        .run(
            streams,
            keys,
            relayed,
            views(this.flags),
            rate(this.flags),
            this.flags.decimal("changes-scale-warmup-seconds", 10),
            this.flags.decimal("changes-scale-seconds", 30));
  }

  /**
   * The keys of {@code keys} whose partition another instance owns: {@code entry} answers a lookup
   * of one key of each partition with the {@code Matview-Served-By} of the owner.
   */
  private Set<String> ownedElsewhere(AppInstance entry, List<String> keys) {
    int partitions = this.flags.integer("partitions", 4);
    Map<Integer, Boolean> elsewhere = new LinkedHashMap<>();
    Set<String> relayed = new HashSet<>();
    for (String key : keys) {
      int partition =
          Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
      boolean other =
          elsewhere.computeIfAbsent(
              partition,
              (p) -> {
                String servedBy =
                    entry.http().get("/views/" + VIEW + "/keys/" + key).header("Matview-Served-By");
                return !entry.hostAndPort().equals(servedBy);
              });
      if (other) {
        relayed.add(key);
      }
    }
    return relayed;
  }

  /**
   * {@code keys} but those owned {@code elsewhere} past the most streams one instance relays from
   * one owner, less the view streams' relays: the product refuses those with a 429.
   */
  private List<String> withinRelayBound(List<String> keys, Set<String> elsewhere) {
    int bound = PeerClient.MAX_RELAYED_STREAMS_PER_INSTANCE - views(this.flags);
    List<String> within = new ArrayList<>();
    int relayed = 0;
    for (String key : keys) {
      if (!elsewhere.contains(key)) {
        within.add(key);
      } else if (relayed < bound) {
        within.add(key);
        relayed++;
      }
    }
    return within;
  }

  private List<String> keyNames() {
    return IntStream.range(0, keys(this.flags)).mapToObj(i -> "order-" + i).toList();
  }

  static int keys(Flags flags) {
    return flags.integer("changes-scale-keys", 10_000);
  }

  static int views(Flags flags) {
    return flags.integer("changes-scale-view-streams", 100);
  }

  static double rate(Flags flags) {
    return flags.decimal("changes-scale-rate", 2_000);
  }

  /**
   * The streams on one instance.
   *
   * @param load their latencies and events
   * @param streams how many were open
   * @param heapBefore live heap bytes with none open, after a full GC
   * @param heapOpen live heap bytes with them open, after the load and a full GC
   * @param threadsBefore live threads with none open
   * @param threadsOpen live threads with them open
   * @param backlog the orders of each backlog
   * @param withStreams orders a second a backlog was applied at with them open
   * @param withoutStreams the same without any, the mean of a backlog before and one after
   * @param openAfterBacklog streams still open after the backlog (slow ones are dropped)
   */
  record Single(
      ScaleLoad.Measured load,
      int streams,
      long heapBefore,
      long heapOpen,
      double threadsBefore,
      double threadsOpen,
      long backlog,
      double withStreams,
      double withoutStreams,
      long openAfterBacklog) {}

  /**
   * The streams on the first of two instances.
   *
   * @param load their latencies and events
   * @param relayedKeys the keys whose streams were relayed
   * @param keys every key followed
   */
  record Relayed(ScaleLoad.Measured load, int relayedKeys, int keys) {}
}
