package dev.matview.benchmarks.lookups;

import dev.matview.benchmarks.BenchContext;
import dev.matview.benchmarks.ClusterSpec;
import dev.matview.benchmarks.Clusters;
import dev.matview.benchmarks.Flags;
import dev.matview.benchmarks.kafka.OrderSender;
import dev.matview.benchmarks.kafka.OrdersProducer;
import dev.matview.benchmarks.process.AppInstance;
import dev.matview.processes.http.HttpProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Row 10's read-your-writes: orders sent one at a time, each followed, once the broker has
 * acknowledged it, by the lookup of its key that names it with {@code after=}, timed from just
 * before the send to the answer; on a view that re-keys by customer (through its repartition topic)
 * and on one that keeps the record key, in turns, on an instance of their own.
 */
final class ReadYourWrites {

  /** Orders sent and looked up before the timed ones, for each view. */
  static final int WARM_UP_ORDERS = 20;

  private static final long HIGHEST_MICROS = 60_000_000;

  /** The failures named in the notes, at most. */
  private static final int NOTED_FAILURES = 5;

  private final BenchContext context;

  private final String title;

  ReadYourWrites(BenchContext context, String title) {
    this.context = context;
    this.title = title;
  }

  /**
   * One instance keeping the re-keyed table view and the view of orders by id, over 10,000 orders
   * of 1,000 customers published before it starts; with {@code --rw-streams-linger-ms}, its Kafka
   * Streams producer lingers that long instead of Kafka Streams' default (100 ms).
   */
  static ClusterSpec cluster(Flags flags) {
    String linger = flags.text("rw-streams-linger-ms", "");
    Map<String, String> properties =
        linger.isEmpty()
            ? Map.of()
            : Map.of("spring.kafka.streams.properties.producer.linger.ms", linger);
    return new ClusterSpec(
        "positions",
        1,
        10_000,
        1_000,
        Set.of(Clusters.TABLE_VIEW, Clusters.ORDER_VIEW),
        properties);
  }

  /** Sends {@code orders} orders for each view after the warm-up ones, and times their lookups. */
  Measured run(int orders) {
    ClusterSpec spec = cluster(this.context.flags());
    AppInstance app = this.context.cluster(spec).instance(0);
    Measured measured = new Measured(new Latencies(), new Latencies());
    try (OrderSender sender =
        new OrderSender(this.context.broker().bootstrapServers(), spec.topic())) {
      long next = spec.orders();
      for (int i = -WARM_UP_ORDERS; i < orders; i++) {
        for (View view : View.values()) {
          String customerId = OrdersProducer.customer(next, spec.customers());
          Sent sent = writeThenRead(app.http(), sender, view, "order-" + next, customerId, next);
          next++;
          if (i >= 0) {
            measured.of(view).add(sent);
          }
        }
      }
    } finally {
      this.context.discard(spec);
    }
    return measured;
  }

  private Sent writeThenRead(
      HttpProbe http,
      OrderSender sender,
      View view,
      String orderId,
      String customerId,
      long index) {
    String path = "/views/" + view.name + "/keys/" + (view.rekeyed ? customerId : orderId);
    HttpProbe.Answer before = http.get(path);
    long start = System.nanoTime();
    RecordMetadata written = sender.send(orderId, customerId, index);
    long acked = System.nanoTime();
    String after = written.topic() + ":" + written.partition() + ":" + written.offset();
    HttpProbe.Answer answer = http.get(path + "?after=" + HttpProbe.encode(after));
    long answered = System.nanoTime();
    boolean includes = answer.status() == 200 && view.includes(answer, before, orderId);
    if (!includes) {
      this.context.log(this.title + ": " + orderId + " missing: " + answer.describe());
    }
    return new Sent(includes, (acked - start) / 1000, (answered - start) / 1000, answer.describe());
  }

  /** The two views of row 10's read-your-writes. */
  enum View {
    /** Orders per customer: re-keyed by customer through a repartition topic. */
    REKEYED(Clusters.TABLE_VIEW, true),
    /** Each order by its id, the record's key: no re-keying. */
    BY_RECORD_KEY(Clusters.ORDER_VIEW, false);

    final String name;

    final boolean rekeyed;

    View(String name, boolean rekeyed) {
      this.name = name;
      this.rekeyed = rekeyed;
    }

    /** Whether {@code answer} includes the order {@code orderId}, given the answer before it. */
    boolean includes(HttpProbe.Answer answer, HttpProbe.Answer before, String orderId) {
      if (this.rekeyed) {
        long counted = (before.status() == 200) ? before.json().path("value").asLong() : 0;
        return answer.json().path("value").asLong() > counted;
      }
      return orderId.equals(answer.json().path("value").path("orderId").asString());
    }
  }

  /**
   * What the timed orders of each view measured.
   *
   * @param rekeyed the orders looked up in the view that re-keys them by customer
   * @param byRecordKey the orders looked up in the view of orders by id
   */
  record Measured(Latencies rekeyed, Latencies byRecordKey) {

    /** What {@code view}'s timed orders measured. */
    Latencies of(View view) {
      return (view == View.REKEYED) ? this.rekeyed : this.byRecordKey;
    }
  }

  /**
   * One order written then read.
   *
   * @param includes whether the answer was a 200 that includes the order
   * @param ackMicros from just before the send to the broker's acknowledgement
   * @param answerMicros from just before the send to the answer
   * @param answer the answer, described
   */
  private record Sent(boolean includes, long ackMicros, long answerMicros, String answer) {}

  /** The latencies of one view's timed orders, and the ones whose answer missed them. */
  static final class Latencies {

    private final Histogram answered = new Histogram(HIGHEST_MICROS, 3);

    private final Histogram acked = new Histogram(HIGHEST_MICROS, 3);

    private final List<String> failed = new ArrayList<>();

    private int sent;

    private int failures;

    private void add(Sent order) {
      this.sent++;
      if (!order.includes()) {
        this.failures++;
        if (this.failed.size() < NOTED_FAILURES) {
          this.failed.add(order.answer());
        }
        return;
      }
      this.answered.recordValue(Math.min(Math.max(order.answerMicros(), 1), HIGHEST_MICROS));
      this.acked.recordValue(Math.min(Math.max(order.ackMicros(), 1), HIGHEST_MICROS));
    }

    /** From just before the send to the answer that includes it, at {@code percentile}, in ms. */
    double answerMillis(double percentile) {
      return millis(this.answered, percentile);
    }

    /** From just before the send to the broker's acknowledgement, at {@code percentile}, in ms. */
    double ackMillis(double percentile) {
      return millis(this.acked, percentile);
    }

    /** The share of the mean latency to the answer that passed before the send's ack. */
    double ackShare() {
      return this.answered.getTotalCount() > 0
          ? this.acked.getMean() / this.answered.getMean()
          : Double.NaN;
    }

    /** Orders timed. */
    int sent() {
      return this.sent;
    }

    /** Orders whose lookup answered other than a 200 that includes them. */
    int failures() {
      return this.failures;
    }

    /** The first few answers that missed their order, described. */
    List<String> failed() {
      return List.copyOf(this.failed);
    }

    private static double millis(Histogram histogram, double percentile) {
      return histogram.getTotalCount() > 0
          ? histogram.getValueAtPercentile(percentile) / 1000.0
          : Double.NaN;
    }
  }
}
