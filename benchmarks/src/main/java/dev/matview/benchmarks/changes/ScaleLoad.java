package dev.matview.benchmarks.changes;

import dev.matview.benchmarks.load.FixedRateSchedule;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * Row 11's load at scale: orders at a fixed rate over the followed keys while every stream is open,
 * a warm-up unrecorded then the recorded orders, until each group of streams has received every
 * event of the recorded ones; a missing event fails the run.
 */
final class ScaleLoad {

  /** How long the events of the last orders sent may take before the rest count as lost. */
  private static final Duration LAST_EVENTS = Duration.ofSeconds(15);

  private static final List<String> GROUPS =
      List.of("streams of keys served locally", "relayed streams of keys", "view's streams");

  private final String bootstrapServers;

  private final String topic;

  private final SendClock clock;

  /** Orders to {@code topic} on {@code bootstrapServers}, their times written by {@code clock}. */
  ScaleLoad(String bootstrapServers, String topic, SendClock clock) {
    this.bootstrapServers = bootstrapServers;
    this.topic = topic;
    this.clock = clock;
  }

  /**
   * Sends orders to {@code keys} at {@code rate} a second, {@code warmUpSeconds} unrecorded then
   * {@code seconds} recorded, into {@code streams} (of which {@code views} stream the whole view
   * and {@code relayed} keys are relayed), and waits for their events.
   *
   * @throws IllegalStateException when a send failed, a stream ended or an event is missing
   */
  Measured run(
      ScaleStreams streams,
      List<String> keys,
      Set<String> relayed,
      int views,
      double rate,
      double warmUpSeconds,
      double seconds) {
    long warmUp = Math.round(rate * warmUpSeconds);
    long count = warmUp + Math.max(1, Math.round(rate * seconds));
    long[] expected = new long[3];
    for (long i = warmUp; i < count; i++) {
      expected[relayed.contains(keys.get((int) (i % keys.size()))) ? 1 : 0]++;
    }
    expected[ScaleStreams.VIEW] = (count - warmUp) * views;
    List<ScaleTally> tallies =
        List.of(
            new ScaleTally(1, warmUp, count),
            new ScaleTally(1, warmUp, count),
            new ScaleTally(views, warmUp, count));
    FixedRateSchedule schedule =
        new FixedRateSchedule(System.nanoTime() + Duration.ofMillis(100).toNanos(), rate);
    streams.record(new ScaleStreams.Recording(schedule.intendedNanos(0), 1e9 / rate, tallies));
    long cpuBefore = ScaleStreams.clientCpuNanos();
    int failed =
        new FixedRateOrders(this.bootstrapServers, this.topic, this.clock)
            .send(keys, schedule, count);
    long deadline = System.nanoTime() + LAST_EVENTS.toNanos();
    while (System.nanoTime() < deadline && !all(tallies, expected)) {
      LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
    }
    tallies.forEach(ScaleTally::stop);
    long recordedFrom = schedule.intendedNanos(warmUp);
    double clientCores =
        (ScaleStreams.clientCpuNanos() - cpuBefore)
            / (double) (System.nanoTime() - schedule.intendedNanos(0));
    if (failed > 0) {
      throw new IllegalStateException(failed + " of " + count + " orders could not be sent");
    }
    streams.requireNoneEnded();
    for (int group = 0; group < expected.length; group++) {
      long missing = expected[group] - tallies.get(group).received();
      if (missing > 0) {
        throw new IllegalStateException(
            missing
                + " of "
                + expected[group]
                + " change events of the "
                + GROUPS.get(group)
                + " did not arrive within "
                + LAST_EVENTS.toSeconds()
                + " s of the last order sent");
      }
    }
    return new Measured(count - warmUp, recordedFrom, tallies, expected, clientCores);
  }

  private static boolean all(List<ScaleTally> tallies, long[] expected) {
    for (int group = 0; group < expected.length; group++) {
      if (tallies.get(group).received() < expected[group]) {
        return false;
      }
    }
    return true;
  }

  /**
   * What the recorded orders measured.
   *
   * @param orders the recorded orders sent
   * @param recordedFromNanos when the first recorded order was meant to be sent
   * @param tallies each group's events ({@link ScaleStreams#LOCAL}, {@link ScaleStreams#RELAYED},
   *     {@link ScaleStreams#VIEW})
   * @param expected each group's events expected
   * @param clientCores the cores the client's HTTP threads used while the orders were sent and
   *     their events read
   */
  record Measured(
      long orders,
      long recordedFromNanos,
      List<ScaleTally> tallies,
      long[] expected,
      double clientCores) {

    /** The tally of {@code group}. */
    ScaleTally tally(int group) {
      return this.tallies.get(group);
    }

    /** The events of {@code group} delivered a second. */
    double perSecond(int group) {
      return tally(group).perSecond(this.recordedFromNanos);
    }

    /** The events of {@code group} offered a second: its events over the recorded orders' time. */
    double offered(int group, double rate) {
      return this.expected[group] * rate / this.orders;
    }
  }
}
