package dev.matview.metrics;

import dev.matview.query.LookupMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** Times lookups as {@code matview.lookups}, tagged by view, route and outcome. */
public final class LookupTimers implements LookupMetrics {

  private final MeterRegistry registry;

  private final Map<List<String>, Timer> timers = new ConcurrentHashMap<>();

  /** Timers registered in {@code registry}. */
  public LookupTimers(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void record(String view, String route, String outcome, long nanos) {
    this.timers
        .computeIfAbsent(List.of(view, route, outcome), this::timer)
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  private Timer timer(List<String> tags) {
    return Timer.builder("matview.lookups")
        .description("Lookups of views by key, with how they were routed and what they found")
        .tags("view", tags.get(0), "route", tags.get(1), "outcome", tags.get(2))
        .register(this.registry);
  }
}
