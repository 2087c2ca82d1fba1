package dev.matview.metrics;

import dev.matview.changes.ChangeStreams;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/** The gauge {@code matview.changes.streams}: the change streams this instance serves now. */
public final class ChangeStreamMetrics implements MeterBinder {

  /** The gauge's name. */
  public static final String STREAMS = "matview.changes.streams";

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
  }

  private double open() {
    ChangeStreams served = this.streams.get();
    return (served != null) ? served.openStreams() : 0;
  }
}
