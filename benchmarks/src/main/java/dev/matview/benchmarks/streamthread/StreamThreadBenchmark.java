package dev.matview.benchmarks.streamthread;

import dev.matview.benchmarks.BenchContext;
import dev.matview.benchmarks.Benchmark;
import dev.matview.benchmarks.Flags;
import dev.matview.benchmarks.Row;
import dev.matview.benchmarks.Stats;
import dev.matview.benchmarks.kafka.StringProducers;
import dev.matview.replica.AppliedOffset;
import dev.matview.replica.OffsetWaiters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Row 12 (issue 45's "the stream thread pays O(1) per record"): records/s through a table view's
 * topology, Matview's own processors, {@code AppliedOffset} and change feed run by Kafka Streams on
 * the in-process broker, while {@code 100} and {@code 10,000} reads wait for an offset the view has
 * not reached, and while as many change streams each follow a key of their own, against neither.
 * The view's topic holds each of {@code --stream-thread-keys} (10,000) pages once, then {@code
 * --stream-thread-records} (300,000) clicks of pages at random, before any run; each run is a Kafka
 * Streams application of its own (one stream thread, a fresh RocksDB store) that opens its load
 * when its store opens and is timed from then until it has applied the last record; the streams'
 * followers must then have heard every update of their keys. A warm-up round of every load goes
 * first, then {@code --stream-thread-rounds} (5) rounds in rotating order; the figures are medians.
 */
public final class StreamThreadBenchmark implements Benchmark {

  /** The least share of the rate without waits or streams that the rate with them keeps. */
  private static final double GOAL = 0.95;

  private static final String TITLE = "records/s with waiting reads and change streams";

  private static final long CATCH_UP_NANOS = TimeUnit.SECONDS.toNanos(60);

  @Override
  public int row() {
    return 12;
  }

  @Override
  public String name() {
    return "stream-thread";
  }

  @Override
  public String title() {
    return TITLE;
  }

  @Override
  public List<Row> run(BenchContext context) throws Exception {
    Flags flags = context.flags();
    int keys = flags.integer("stream-thread-keys", 10_000);
    int records = flags.integer("stream-thread-records", 300_000);
    int rounds = flags.integer("stream-thread-rounds", 5);
    List<Load> loads =
        List.of(
            new Load(0, 0),
            new Load(100, 0),
            new Load(10_000, 0),
            new Load(0, Math.min(100, keys)),
            new Load(0, Math.min(10_000, keys)));
    int[] pages = publish(context, keys, records);
    List<List<Double>> rates = new ArrayList<>();
    loads.forEach((load) -> rates.add(new ArrayList<>()));
    int run = 0;
    for (int round = 0; round <= rounds; round++) {
      for (int i = 0; i < loads.size(); i++) {
        int index = (i + round) % loads.size();
        Load load = loads.get(index);
        double rate = measure(context, load, pages, run++);
        context.log(
            String.format(Locale.ROOT, "row 12 round %d: %s %,.0f records/s", round, load, rate));
        if (round > 0) {
          rates.get(index).add(rate);
        }
      }
    }
    double none = Stats.median(rates.get(0));
    List<Row> rows = new ArrayList<>();
    for (int index = 1; index < loads.size(); index++) {
      Load load = loads.get(index);
      double rate = Stats.median(rates.get(index));
      context.note(title(), load + ": " + rounded(rates.get(index)) + " records/s by round");
      rows.add(
          Row.atLeast(
                  12,
                  "records/s through a table view's topology with " + load + " (beside: none)",
                  rate,
                  none,
                  "records/s",
                  GOAL)
              .boundedBy(load.bound()));
    }
    context.note(title(), "none: " + rounded(rates.get(0)) + " records/s by round");
    return rows;
  }

  /** Writes each page once, then {@code records} clicks of pages at random, to the view's topic. */
  private static int[] publish(BenchContext context, int keys, int records) {
    context.broker().createTopic(ViewStreamsRig.VIEW, 1);
    int[] pages = new int[keys + records];
    for (int i = 0; i < keys; i++) {
      pages[i] = i;
    }
    Random random = new Random(45);
    for (int i = keys; i < pages.length; i++) {
      pages[i] = random.nextInt(keys);
    }
    Map<String, Object> config =
        StringProducers.settings(
            context.broker().bootstrapServers(),
            Map.of(
                ProducerConfig.LINGER_MS_CONFIG,
                10,
                ProducerConfig.BATCH_SIZE_CONFIG,
                256 * 1024,
                ProducerConfig.ACKS_CONFIG,
                "1"));
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
      for (int page : pages) {
        producer.send(
            new ProducerRecord<>(
                ViewStreamsRig.VIEW, page(page), "{\"page\":\"" + page(page) + "\"}"));
      }
      producer.flush();
    }
    return pages;
  }

  private static String page(int index) {
    return String.format(Locale.ROOT, "page-%05d", index);
  }

  /**
   * Runs the view over every record of its topic as application {@code run}, with {@code load}
   * opened when its store opens, and answers the records/s from then until the last is applied.
   */
  private static double measure(BenchContext context, Load load, int[] pages, int run)
      throws Exception {
    String applicationId = "stream-thread-" + run;
    byte[][] keys = new byte[load.streams()][];
    for (int key = 0; key < keys.length; key++) {
      keys[key] = ViewStreamsRig.keyBytes(applicationId, page(key));
    }
    List<OffsetWaiters.Waiter> waiters = new ArrayList<>();
    List<KeyFollower> followers = new ArrayList<>();
    AtomicLong heard = new AtomicLong();
    AtomicLong started = new AtomicLong();
    Path stateDir = context.dir("stream-thread/" + applicationId);
    try (ViewStreamsRig rig =
        new ViewStreamsRig(
            context.broker().bootstrapServers(),
            applicationId,
            stateDir,
            (offset) -> {
              for (int i = 0; i < load.waiters(); i++) {
                waiters.add(offset.await(Long.MAX_VALUE - i, () -> {}));
              }
              for (byte[] key : keys) {
                KeyFollower follower = new KeyFollower(key, heard);
                offset.changes().listen(follower, offset.begun());
                followers.add(follower);
              }
              started.set(System.nanoTime());
            })) {
      AppliedOffset offset = rig.offset();
      long last = pages.length - 1;
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
      while (offset.applied() < last && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      long elapsed = System.nanoTime() - started.get();
      if (offset.applied() < last) {
        throw new IllegalStateException(
            load + ": applied " + offset.applied() + " of " + last + " within 10 minutes");
      }
      long expected = Arrays.stream(pages).filter((page) -> page < load.streams()).count();
      awaitHeard(context, load, heard, expected);
      waiters.forEach(offset::forget);
      followers.forEach(offset.changes()::stop);
      return pages.length * 1e9 / elapsed;
    }
  }

  /** Waits until the followers heard every update of their keys; notes it when they did not. */
  private static void awaitHeard(BenchContext context, Load load, AtomicLong heard, long expected) {
    long deadline = System.nanoTime() + CATCH_UP_NANOS;
    while (heard.get() < expected && System.nanoTime() < deadline) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    if (heard.get() != expected) {
      context.note(
          TITLE, load + ": the followers heard " + heard.get() + " of " + expected + " updates");
    }
  }

  private static String rounded(List<Double> rates) {
    return rates.stream()
        .map((rate) -> String.format(Locale.ROOT, "%,.0f", rate))
        .toList()
        .toString();
  }

  /** What runs beside the records: reads waiting for an offset, or change streams. */
  private record Load(int waiters, int streams) {

    String bound() {
      if (this.waiters > 0) {
        return "a completed record looks at the lowest offset waited for";
      }
      if (this.streams > 0) {
        return "an update appended to the partition's history; streams fed on another thread";
      }
      return "";
    }

    @Override
    public String toString() {
      if (this.waiters > 0) {
        return String.format(Locale.ROOT, "%,d waiting reads", this.waiters);
      }
      if (this.streams > 0) {
        return String.format(Locale.ROOT, "%,d change streams of a key each", this.streams);
      }
      return "none";
    }
  }
}
