package dev.matview.benchmarks.changes;

import dev.matview.benchmarks.load.FixedRateSchedule;
import dev.matview.benchmarks.process.AppInstance;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Row 11's latency: a change stream of each of {@code keys} on the view of orders by id, which
 * keeps each order by its record key without re-keying, and orders sent to those keys at a fixed
 * rate; each event is timed from its order's intended send time to its arrival at the client,
 * beside a plain consumer of the same orders.
 */
final class ChangeLatency {

  /** How long the events of the last orders sent may take before the rest count as lost. */
  private static final Duration LAST_EVENTS = Duration.ofSeconds(10);

  private final JsonMapper json = JsonMapper.builder().build();

  private final SendClock clock = new SendClock();

  private final String bootstrapServers;

  private final String topic;

  private final String view;

  /** Latencies of {@code view}'s change streams over orders sent to {@code topic}. */
  ChangeLatency(String bootstrapServers, String topic, String view) {
    this.bootstrapServers = bootstrapServers;
    this.topic = topic;
    this.view = view;
  }

  /**
   * Opens a stream of each of {@code keys} on {@code app}, sends orders to them at {@code rate} a
   * second, {@code warmUpSeconds} unrecorded then {@code seconds} recorded, and closes the streams.
   */
  Measured run(
      AppInstance app, List<String> keys, double rate, double warmUpSeconds, double seconds)
      throws InterruptedException {
    long warmUp = Math.round(rate * warmUpSeconds);
    long count = warmUp + Math.max(1, Math.round(rate * seconds));
    Latencies events = new Latencies();
    Latencies consumed = new Latencies();
    int failedSends;
    try (SseStreams streams = new SseStreams(app.port());
        PlainConsumer consumer =
            new PlainConsumer(this.bootstrapServers, this.topic, this.clock, consumed)) {
      for (String key : keys) {
        streams.open("/views/" + this.view + "/keys/" + key + "/changes", e -> arrived(e, events));
      }
      streams.awaitOpen(keys.size(), Duration.ofSeconds(60));
      consumer.start();
      FixedRateSchedule schedule =
          new FixedRateSchedule(System.nanoTime() + Duration.ofMillis(100).toNanos(), rate);
      events.recordFrom(schedule.intendedNanos(warmUp));
      consumed.recordFrom(schedule.intendedNanos(warmUp));
      failedSends =
          new FixedRateOrders(this.bootstrapServers, this.topic, this.clock)
              .send(keys, schedule, count);
      awaitArrivals(events, consumed, count - warmUp - failedSends);
    }
    return new Measured(count - warmUp, failedSends, events, consumed);
  }

  private void arrived(SseEvent event, Latencies events) {
    if (event.name().equals("value")) {
      long sent = this.clock.nanos(this.json.readTree(event.data()).path("value").path("ts"));
      events.arrived(sent, event.receivedNanos());
    }
  }

  private static void awaitArrivals(Latencies events, Latencies consumed, long expected) {
    try {
      Awaitility.await("the events of the orders sent")
          .atMost(LAST_EVENTS)
          .pollInterval(Duration.ofMillis(20))
          .until(() -> events.received() >= expected && consumed.received() >= expected);
    } catch (ConditionTimeoutException ex) {
      // the orders whose events did not arrive count as lost
    }
  }

  /**
   * What the recorded orders measured.
   *
   * @param sent the recorded orders sent
   * @param failedSends sends the broker refused, of every order
   * @param events each recorded order's change event at the client
   * @param consumed each recorded order at the plain consumer
   */
  record Measured(long sent, int failedSends, Latencies events, Latencies consumed) {}
}
