package dev.matview.metrics;

import dev.matview.query.LookupMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Times lookups as {@code matview.lookups} by view, route and outcome, and counts them by route.
 */
public final class LookupTimers implements LookupMetrics {

  private final MeterRegistry registry;

  private final @Nullable LookupActivity activity;

  private final Map<String, Map<String, Map<String, Timer>>> timers = new ConcurrentHashMap<>();

  /** Timers registered in {@code registry}. */
  public LookupTimers(MeterRegistry registry) {
    this(registry, null);
  }

  /** Timers registered in {@code registry}, each lookup also counted in {@code activity}. */
  public LookupTimers(MeterRegistry registry, @Nullable LookupActivity activity) {
    this.registry = registry;
    this.activity = activity;
  }

  @Override
  public void record(String view, String route, String outcome, long nanos) {
    Map<String, Timer> byOutcome =
        this.timers
            .computeIfAbsent(view, (ignored) -> new ConcurrentHashMap<>())
            .computeIfAbsent(route, (ignored) -> new ConcurrentHashMap<>());
    Timer timer = byOutcome.get(outcome);
    if (timer == null) {
      timer = byOutcome.computeIfAbsent(outcome, (named) -> timer(view, route, named));
    }
    timer.record(nanos, TimeUnit.NANOSECONDS);
    if (this.activity != null) {
      this.activity.record(route, nanos);
    }
  }

  private Timer timer(String view, String route, String outcome) {
    return Timer.builder("matview.lookups")
        .description("Lookups of views by key, with how they were routed and what they found")
        .tags("view", view, "route", route, "outcome", outcome)
        .register(this.registry);
  }
}
