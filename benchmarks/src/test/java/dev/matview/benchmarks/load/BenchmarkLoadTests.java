package dev.matview.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchmarkLoadTests {

  @Test
  void scheduleSpacesIntendedSendTimesEvenly() {
    FixedRateSchedule schedule = new FixedRateSchedule(1_000, 4);
    assertThat(schedule.intendedNanos(0)).isEqualTo(1_000);
    assertThat(schedule.intendedNanos(1)).isEqualTo(250_001_000);
    assertThat(schedule.intendedNanos(4)).isEqualTo(1_000_001_000);
  }

  @Test
  void latencyBehindAStallCountsFromTheIntendedSendTime() {
    // Requests meant for t=0, 10, 20 ms; the first answer took 50 ms, so the next two went late.
    long ms = 1_000_000;
    assertThat(FixedRateSchedule.latencyNanos(0, 0, 50 * ms)).isEqualTo(50 * ms);
    assertThat(FixedRateSchedule.latencyNanos(10 * ms, 50 * ms, 51 * ms)).isEqualTo(41 * ms);
    assertThat(FixedRateSchedule.latencyNanos(20 * ms, 51 * ms, 52 * ms)).isEqualTo(32 * ms);
  }

  @Test
  void latencyOfARequestSentEarlyCountsFromWhenItWasSent() {
    assertThat(FixedRateSchedule.latencyNanos(100, 90, 150)).isEqualTo(60);
  }

  @Test
  void coordinatedOmissionCorrectionShowsAStallInTheHighPercentiles() {
    Histogram corrected = new Histogram(60_000_000, 3);
    Histogram naive = new Histogram(60_000_000, 3);
    long intervalMicros = 1_000;
    long done = 0;
    for (int i = 0; i < 1_000; i++) {
      long intended = i * intervalMicros;
      long sent = Math.max(intended, done);
      long service = (i == 100) ? 200_000 : 100;
      done = sent + service;
      corrected.recordValue(FixedRateSchedule.latencyNanos(intended, sent, done));
      naive.recordValue(done - sent);
    }
    assertThat(naive.getValueAtPercentile(99)).isLessThan(200);
    assertThat(corrected.getValueAtPercentile(99)).isGreaterThan(100_000);
  }

  @Test
  void percentilesComeFromTheRecordedLatencies() {
    Histogram latencies = new Histogram(60_000_000, 3);
    for (int micros = 1; micros <= 100; micros++) {
      latencies.recordValue(micros);
    }
    LoadResult result = LoadResult.of(100, 0, 2.0, latencies);
    assertThat(result.p50Micros()).isEqualTo(50);
    assertThat(result.p99Micros()).isEqualTo(99);
    assertThat(result.maxMicros()).isEqualTo(100);
    assertThat(result.throughput()).isEqualTo(50.0);
  }

  @Test
  void resultSurvivesTheTripThroughItsFile(@TempDir Path dir) {
    LoadResult result = new LoadResult(10, 1, 2.5, 100, 900, 1200);
    result.write(dir.resolve("result.properties"));
    assertThat(LoadResult.read(dir.resolve("result.properties"))).isEqualTo(result);
  }

  @Test
  void driverReadsFixedLengthAndChunkedAnswersOverKeptAliveConnections() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    byte[] body = "{\"key\":\"k\",\"value\":1}".getBytes(StandardCharsets.UTF_8);
    server.createContext(
        "/fixed",
        exchange -> {
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.createContext(
        "/chunked",
        exchange -> {
          exchange.sendResponseHeaders(200, 0);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    try {
      LoadDriver driver =
          new LoadDriver(
              server.getAddress().getPort(), List.of("/fixed", "/chunked"), 2, 200, 0.1, 0.5);
      LoadResult result = driver.run();
      assertThat(result.errors()).isZero();
      assertThat(result.requests()).isBetween(80L, 110L);
      assertThat(result.p50Micros()).isPositive();
    } finally {
      server.stop(0);
    }
  }
}
