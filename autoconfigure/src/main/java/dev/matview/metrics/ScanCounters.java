package dev.matview.metrics;

import dev.matview.query.ScanMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Counts the items streamed scans send as {@code matview.scans.streamed.items}, by view. */
public final class ScanCounters implements ScanMetrics {

  private final MeterRegistry registry;

  private final Map<String, Counter> counters = new ConcurrentHashMap<>();

  /** Counters registered in {@code registry}. */
  public ScanCounters(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void streamed(String view, int items) {
    this.counters.computeIfAbsent(view, this::counter).increment(items);
  }

  private Counter counter(String view) {
    return Counter.builder("matview.scans.streamed.items")
        .description("Items that streamed scans wrote to their clients' connections")
        .tag("view", view)
        .register(this.registry);
  }
}
