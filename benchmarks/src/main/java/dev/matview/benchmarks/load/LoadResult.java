package dev.matview.benchmarks.load;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.HdrHistogram.Histogram;

/**
 * What one load round measured.
 *
 * @param requests answers received in the measured window
 * @param errors answers other than 200, and failed exchanges
 * @param seconds length of the measured window
 * @param p50Micros median latency in microseconds
 * @param p99Micros 99th percentile latency in microseconds
 * @param maxMicros largest latency in microseconds
 */
public record LoadResult(
    long requests,
    long errors,
    double seconds,
    double p50Micros,
    double p99Micros,
    double maxMicros) {

  /**
   * The result of {@code requests} answers in {@code seconds} whose latencies {@code latencies}
   * holds.
   */
  public static LoadResult of(long requests, long errors, double seconds, Histogram latencies) {
    return new LoadResult(
        requests,
        errors,
        seconds,
        latencies.getValueAtPercentile(50),
        latencies.getValueAtPercentile(99),
        latencies.getMaxValue());
  }

  /** Answers a second. */
  public double throughput() {
    return this.seconds > 0 ? this.requests / this.seconds : 0;
  }

  /** Writes this result to {@code file}. */
  public void write(Path file) {
    Properties properties = new Properties();
    properties.setProperty("requests", Long.toString(this.requests));
    properties.setProperty("errors", Long.toString(this.errors));
    properties.setProperty("seconds", Double.toString(this.seconds));
    properties.setProperty("p50Micros", Double.toString(this.p50Micros));
    properties.setProperty("p99Micros", Double.toString(this.p99Micros));
    properties.setProperty("maxMicros", Double.toString(this.maxMicros));
    try (Writer writer = Files.newBufferedWriter(file)) {
      properties.store(writer, null);
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  /** Reads a result that {@link #write(Path)} wrote. */
  public static LoadResult read(Path file) {
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file)) {
      properties.load(reader);
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
    return new LoadResult(
        Long.parseLong(properties.getProperty("requests")),
        Long.parseLong(properties.getProperty("errors")),
        Double.parseDouble(properties.getProperty("seconds")),
        Double.parseDouble(properties.getProperty("p50Micros")),
        Double.parseDouble(properties.getProperty("p99Micros")),
        Double.parseDouble(properties.getProperty("maxMicros")));
  }
}
