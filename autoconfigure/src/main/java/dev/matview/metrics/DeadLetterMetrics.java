package dev.matview.metrics;

import dev.matview.deadletter.DeadLetter;
import dev.matview.deadletter.DeadLetterListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

/**
 * Counts dead letters in {@code matview.dead.letters}, by {@code view} ({@code none}) and {@code
 * reason}.
 */
public final class DeadLetterMetrics implements MeterBinder, DeadLetterListener {

  /** The counter's name. */
  public static final String NAME = "matview.dead.letters";

  private volatile @Nullable MeterRegistry registry;

  @Override
  public void bindTo(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void published(DeadLetter letter) {
    MeterRegistry registry = this.registry;
    if (registry == null) {
      return;
    }
    String view = letter.view();
    Counter.builder(NAME)
        .description("Records that a view could not use, sent to the dead-letter topic")
        .tag("view", (view != null) ? view : "none")
        .tag("reason", letter.reason().tag())
        .register(registry)
        .increment();
  }
}
