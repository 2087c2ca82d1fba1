package dev.matview.benchmarks.changes;

import dev.matview.benchmarks.process.AppInstance;
import java.time.Duration;
import org.awaitility.Awaitility;

/** An instance's Micrometer gauges, read from its actuator's metrics endpoint. */
final class AppMetrics {

  private AppMetrics() {}

  /** The first measurement of {@code app}'s metric {@code name}, or NaN when it has none. */
  static double value(AppInstance app, String name) {
    return app.http()
        .get("/actuator/metrics/" + name)
        .json()
        .path("measurements")
        .path(0)
        .path("value")
        .asDouble(Double.NaN);
  }

  /** Waits up to {@code bound} until {@code app} serves {@code count} change streams. */
  static void awaitStreams(AppInstance app, int count, Duration bound) {
    Awaitility.await(app.name() + " serving " + count + " change streams")
        .atMost(bound)
        .pollInterval(Duration.ofMillis(200))
        .until(() -> value(app, "matview.changes.streams") == count);
  }
}
