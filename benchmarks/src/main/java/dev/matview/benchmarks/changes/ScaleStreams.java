package dev.matview.benchmarks.changes;

import dev.matview.benchmarks.process.AppInstance;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jspecify.annotations.Nullable;

/**
 * Row 11's streams at scale, all opened on one instance: a stream of each followed key (the ones
 * another instance owns relayed by this one) and streams of the whole view. The key streams are
 * read by a JDK HTTP client without a thread per stream; the few view streams, each of which
 * carries every update, by a thread each ({@link ThreadedSseStreams}), which costs the client less
 * per event. Each {@code value} event is tallied by the order it carries, in the group of its
 * stream.
 */
final class ScaleStreams implements AutoCloseable {

  /** The group of the streams of keys the entry instance owns. */
  static final int LOCAL = 0;

  /** The group of the streams of keys another instance owns, relayed by the entry instance. */
  static final int RELAYED = 1;

  /** The group of the view's streams. */
  static final int VIEW = 2;

  private static final String TS = "\"ts\":\"";

  private static final List<String> GROUP_NAMES = List.of("a local key", "a relayed key", "a view");

  private final AppInstance entry;

  private final String view;

  private final SendClock clock;

  private final SseStreams keyStreams;

  private final ThreadedSseStreams viewStreams;

  private final Queue<String> ended = new ConcurrentLinkedQueue<>();

  private volatile @Nullable Recording recording;

  /** Streams of {@code entry}'s {@code view}, the orders' times read with {@code clock}. */
  ScaleStreams(AppInstance entry, String view, SendClock clock) {
    this.entry = entry;
    this.view = view;
    this.clock = clock;
    this.keyStreams = new SseStreams(entry.port());
    this.viewStreams = new ThreadedSseStreams(entry.port());
  }

  /**
   * Opens {@code views} streams of the view, then one of each of {@code keys} ({@code relayed} the
   * ones another instance owns), and waits until the entry instance serves them all.
   */
  void open(List<String> keys, Set<String> relayed, int views) throws InterruptedException {
    for (int reader = 0; reader < views; reader++) {
      int index = reader;
      this.viewStreams.openQuiet(
          "/views/" + this.view + "/changes", (event) -> arrived(event, VIEW, index));
    }
    AppMetrics.awaitStreams(this.entry, views, Duration.ofSeconds(60));
    for (String key : keys) {
      int group = relayed.contains(key) ? RELAYED : LOCAL;
      this.keyStreams.open(
          "/views/" + this.view + "/keys/" + key + "/changes", (event) -> arrived(event, group, 0));
    }
    this.keyStreams.awaitOpen(keys.size(), Duration.ofSeconds(60).plusMillis(keys.size() * 10L));
    AppMetrics.awaitStreams(this.entry, views + keys.size(), Duration.ofSeconds(60));
    requireNoneEnded();
  }

  /** Tallies the orders of {@code recording} from now on. */
  void record(Recording recording) {
    this.recording = recording;
  }

  /**
   * Fails when a stream ended or could not open: its events would be missing.
   *
   * @throws IllegalStateException naming how many and the first
   */
  void requireNoneEnded() {
    List<String> failures =
        java.util.stream.Stream.concat(
                this.ended.stream(),
                java.util.stream.Stream.concat(
                    this.keyStreams.failures().stream(), this.viewStreams.failures().stream()))
            .toList();
    if (!failures.isEmpty()) {
      long views = failures.stream().filter(failure -> failure.startsWith("view stream")).count();
      throw new IllegalStateException(
          failures.size()
              + " change streams at scale ("
              + views
              + " of the view's)"
              + " ended or did not open, first: "
              + failures.get(0)
              + "; raise matview.changes.buffer or lower the rate if they were dropped");
    }
  }

  /**
   * CPU time that this JVM's stream readers (the JDK client's selector and pool, the view streams'
   * threads) have used, in ns: what reading the streams costs the client.
   */
  static long clientCpuNanos() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long nanos = 0;
    for (ThreadInfo thread : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (thread != null
          && (thread.getThreadName().startsWith("sse-client-")
              || thread.getThreadName().endsWith("-SelectorManager"))) {
        nanos += Math.max(0, threads.getThreadCpuTime(thread.getThreadId()));
      }
    }
    return nanos;
  }

  /** Closes every stream. */
  @Override
  public void close() {
    this.keyStreams.close();
    this.viewStreams.close();
  }

  private void arrived(SseEvent event, int group, int reader) {
    switch (event.name()) {
      case "value" -> tally(event, group, reader);
      case "dropped", "reconnect" ->
          this.ended.add(
              (group == VIEW ? "view stream " + reader : GROUP_NAMES.get(group) + " stream")
                  + " ended with "
                  + event.name()
                  + " "
                  + event.data());
      default -> {}
    }
  }

  private void tally(SseEvent event, int group, int reader) {
    Recording current = this.recording;
    if (current == null) {
      return;
    }
    String data = event.data();
    int from = data.lastIndexOf(TS);
    if (from < 0) {
      return;
    }
    from += TS.length();
    long sent = this.clock.nanos(Instant.parse(data.substring(from, data.indexOf('"', from))));
    long index = Math.round((sent - current.startNanos()) / current.intervalNanos());
    current.tallies().get(group).arrived(reader, index, sent, event.receivedNanos());
  }

  /**
   * The orders of one recorded run: the {@code i}th meant to be sent at {@code startNanos + i *
   * intervalNanos}, tallied by group ({@link #LOCAL}, {@link #RELAYED}, {@link #VIEW}).
   *
   * @param startNanos when the first order was meant to be sent
   * @param intervalNanos the time between two orders
   * @param tallies the tally of each group
   */
  record Recording(long startNanos, double intervalNanos, List<ScaleTally> tallies) {}
}
