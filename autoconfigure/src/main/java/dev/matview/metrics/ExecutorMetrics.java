package dev.matview.metrics;

import dev.matview.execution.MatviewExecutors;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ExecutorServiceMetrics;

/** Micrometer's executor meters of Matview's executors, and the peers' client's I/O threads. */
public final class ExecutorMetrics implements MeterBinder {

  /** The name of the gauge of the peers' HTTP client's I/O threads. */
  public static final String PEER_IO_THREADS = "matview.peer.io.threads";

  private final MatviewExecutors executors;

  /** Meters of {@code executors}. */
  public ExecutorMetrics(MatviewExecutors executors) {
    this.executors = executors;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    this.executors
        .byName()
        .forEach(
            (name, executor) ->
                new ExecutorServiceMetrics(executor, name, Tags.empty()).bindTo(registry));
    Gauge.builder(PEER_IO_THREADS, this.executors, MatviewExecutors::peerIoThreadsAlive)
        .description("Threads of the HTTP client that asks other instances, which it owns")
        .register(registry);
  }
}
