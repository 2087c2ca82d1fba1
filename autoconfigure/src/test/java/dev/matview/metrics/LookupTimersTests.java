package dev.matview.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
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
}
