package dev.matview.benchmarks.load;

import dev.matview.benchmarks.Flags;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Sends GET requests to one port of 127.0.0.1 over keep-alive connections, one thread each, for a
 * fixed time, then writes a {@link LoadResult}. With {@code --rate} it sends at that fixed total
 * rate and measures each latency from the request's intended send time; without, as fast as the
 * server answers (saturation).
 *
 * <p>Flags: {@code --port}, {@code --paths} (a file of request paths, one a line, used round
 * robin), {@code --connections}, {@code --seconds}, {@code --warmup-seconds}, {@code --rate},
 * {@code --out}.
 */
public final class LoadDriver {

  private static final long HIGHEST_MICROS = 60_000_000;

  private final int port;

  private final List<byte[]> requests;

  private final int connections;

  private final double rate;

  private final long warmupNanos;

  private final long measureNanos;

  private final AtomicLong answered = new AtomicLong();

  private final AtomicLong errors = new AtomicLong();

  LoadDriver(
      int port, List<String> paths, int connections, double rate, double warmup, double seconds) {
    this.port = port;
    this.requests = paths.stream().map(HttpConnection::request).toList();
    this.connections = connections;
    this.rate = rate;
    this.warmupNanos = (long) (warmup * 1e9);
    this.measureNanos = (long) (seconds * 1e9);
  }

  public static void main(String[] args) throws Exception {
    Flags flags = Flags.parse(args);
    List<String> paths = Files.readAllLines(Path.of(flags.text("paths", "")));
    LoadDriver driver =
        new LoadDriver(
            flags.integer("port", 0),
            paths,
            flags.integer("connections", 16),
            flags.decimal("rate", 0),
            flags.decimal("warmup-seconds", 2),
            flags.decimal("seconds", 10));
    driver.run().write(Path.of(flags.text("out", "load-result.properties")));
  }

  LoadResult run() throws InterruptedException {
    long start = System.nanoTime();
    long measureFrom = start + this.warmupNanos;
    long end = measureFrom + this.measureNanos;
    List<Histogram> histograms = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < this.connections; i++) {
      Histogram histogram = new Histogram(HIGHEST_MICROS, 3);
      histograms.add(histogram);
      int first = i * Math.max(1, this.requests.size() / this.connections);
      threads.add(new Thread(() -> drive(first, start, measureFrom, end, histogram), "load-" + i));
    }
    threads.forEach(Thread::start);
    for (Thread thread : threads) {
      thread.join();
    }
    Histogram all = new Histogram(HIGHEST_MICROS, 3);
    histograms.forEach(all::add);
    return LoadResult.of(this.answered.get(), this.errors.get(), this.measureNanos / 1e9, all);
  }

  private void drive(int first, long start, long measureFrom, long end, Histogram histogram) {
    FixedRateSchedule schedule =
        this.rate > 0 ? new FixedRateSchedule(start, this.rate / this.connections) : null;
    int next = first;
    try (HttpConnection connection = new HttpConnection(this.port, 10_000)) {
      for (long index = 0; ; index++) {
        long intended = System.nanoTime();
        if (schedule != null) {
          intended = schedule.intendedNanos(index);
          for (long wait = intended - System.nanoTime(); wait > 0; ) {
            LockSupport.parkNanos(wait);
            wait = intended - System.nanoTime();
          }
        }
        if (intended >= end) {
          return;
        }
        long sent = System.nanoTime();
        boolean ok;
        try {
          ok = connection.get(this.requests.get(next)) == 200;
        } catch (IOException ex) {
          ok = false;
        }
        long done = System.nanoTime();
        next = (next + 1) % this.requests.size();
        if (intended >= measureFrom && done <= end + 10_000_000_000L) {
          this.answered.incrementAndGet();
          if (!ok) {
            this.errors.incrementAndGet();
          }
          long micros = FixedRateSchedule.latencyNanos(intended, sent, done) / 1000;
          histogram.recordValue(Math.min(Math.max(micros, 1), HIGHEST_MICROS));
        }
      }
    } catch (IOException ex) {
      this.errors.incrementAndGet();
    }
  }
}
