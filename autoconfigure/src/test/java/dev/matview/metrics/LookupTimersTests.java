package dev.matview.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Lookups are timed as matview.lookups by view, route and outcome. */
class LookupTimersTests {

  @Test
  void timesLookupsByViewRouteAndOutcome() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    LookupTimers timers = new LookupTimers(registry);
    timers.record("orders", "forwarded", "found", 2_000_000);
    timers.record("orders", "forwarded", "found", 4_000_000);
    timers.record("orders", "standby", "absent", 1_000_000);
    Timer forwarded =
        registry
            .get("matview.lookups")
            .tags("view", "orders", "route", "forwarded", "outcome", "found")
            .timer();
    assertThat(forwarded.count()).isEqualTo(2);
    assertThat(forwarded.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(6.0);
    assertThat(registry.get("matview.lookups").tag("route", "standby").timer().count())
        .isEqualTo(1);
  }

  @Test
  void countsLookupsInTheActivityByRoute() {
    AtomicLong nanos = new AtomicLong();
    LookupActivity activity = new LookupActivity(nanos::get, Duration.ofSeconds(1), 1);
    LookupTimers timers = new LookupTimers(new SimpleMeterRegistry(), activity);
    timers.record("orders", "forwarded", "found", 2_000_000);
    timers.record("orders", "local", "absent", 1_000_000);
    nanos.addAndGet(Duration.ofSeconds(1).toNanos());
    assertThat(activity.history().get("forwarded"))
        .containsExactly(new LookupActivity.Bucket(1, 2_000_000));
    assertThat(activity.history().get("local"))
        .containsExactly(new LookupActivity.Bucket(1, 1_000_000));
  }
}
