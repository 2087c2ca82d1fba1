package dev.matview.metrics;

import dev.matview.deadletter.DeadLetter;
import dev.matview.deadletter.DeadLetterListener;
import dev.matview.topology.RecordDrops;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

/**
 * Counts every record a view left out in the counter {@code matview.dropped.records}, tagged with
 * the {@code view} ({@code none} when the failed processor belongs to no view) and the {@code
 * reason}: each dead letter under its reason, and the records left out without one ({@code
 * tombstone}, and {@code late} when late records, of time or session windows, are not dead letters
 * or were late for some of their hopping windows only).
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
