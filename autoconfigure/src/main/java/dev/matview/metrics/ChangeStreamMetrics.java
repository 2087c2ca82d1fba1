package dev.matview.metrics;

import dev.matview.changes.ChangeStreams;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/** Gauges the change streams served here and the updates their clients have not read yet. */
public final class ChangeStreamMetrics implements MeterBinder {

  /** The gauge's name. */
  public static final String STREAMS = "matview.changes.streams";

  /** The name of the gauge of updates waiting for their clients. */
  public static final String WAITING = "matview.changes.waiting";

  private final Supplier<@Nullable ChangeStreams> streams;

  /** A gauge of the streams that {@code streams} serves, none while it gives no service. */
  public ChangeStreamMetrics(Supplier<@Nullable ChangeStreams> streams) {
    this.streams = streams;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder(STREAMS, this, ChangeStreamMetrics::open)
        .description("Change streams this instance serves, relayed ones included")
        .register(registry);
    Gauge.builder(WAITING, this, ChangeStreamMetrics::waiting)
        .description(
            "Updates that wait in change streams for clients that have not read them yet,"
                + " at most matview.changes.buffer per stream")
        .register(registry);
  }

  private double open() {
    ChangeStreams served = this.streams.get();
    return (served != null) ? served.openStreams() : 0;
  }

  private double waiting() {
    ChangeStreams served = this.streams.get();
    return (served != null) ? served.waitingEvents() : 0;
  }
}
