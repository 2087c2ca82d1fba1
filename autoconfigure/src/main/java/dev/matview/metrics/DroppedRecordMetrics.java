package dev.matview.metrics;

import dev.matview.deadletter.DeadLetter;
import dev.matview.deadletter.DeadLetterListener;
import dev.matview.topology.RecordDrops;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

/**
 * Counts every record a view left out in {@code matview.dropped.records}, by {@code view} ({@code
 * none} for no view) and {@code reason}: each dead letter's, or {@code tombstone} and {@code late}
 * for those left out without one.
 */
public final class DroppedRecordMetrics implements MeterBinder, DeadLetterListener, RecordDrops {

  /** The counter's name. */
  public static final String NAME = "matview.dropped.records";

  private volatile @Nullable MeterRegistry registry;

  @Override
  public void bindTo(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void published(DeadLetter letter) {
    String view = letter.view();
    dropped((view != null) ? view : "none", letter.reason().tag());
  }

  @Override
  public void dropped(String view, String reason) {
    MeterRegistry registry = this.registry;
    if (registry == null) {
      return;
    }
    Counter.builder(NAME)
        .description("Records that a view left out, with or without a dead letter")
        .tag("view", view)
        .tag("reason", reason)
        .register(registry)
        .increment();
  }
}
