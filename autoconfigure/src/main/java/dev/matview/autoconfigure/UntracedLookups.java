package dev.matview.autoconfigure;

import dev.matview.observation.MatviewObservations;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationPredicate;
import io.micrometer.tracing.Tracer;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Leaves lookups ({@value MatviewObservations#LOOKUP}) unobserved while the application has no
 * tracer: the {@code matview.lookups} timer already times them, and without spans an observation
 * would only time them twice; whether a tracer is a bean is asked once, at the first lookup.
 */
final class UntracedLookups implements ObservationPredicate {

  private static final boolean TRACING_PRESENT =
      ClassUtils.isPresent("io.micrometer.tracing.Tracer", UntracedLookups.class.getClassLoader());

  private final ListableBeanFactory beans;

  private volatile @Nullable Boolean tracing;

  UntracedLookups(ListableBeanFactory beans) {
    this.beans = beans;
  }

  @Override
  public boolean test(String name, Observation.Context context) {
    return !MatviewObservations.LOOKUP.equals(name) || tracing();
  }

  private boolean tracing() {
    Boolean known = this.tracing;
    if (known == null) {
      known = TRACING_PRESENT && Tracers.real(this.beans);
      this.tracing = known;
    }
    return known;
  }

  /** Reads the tracer beans, in a class of its own that only loads when Micrometer Tracing is. */
  private static final class Tracers {

    static boolean real(ListableBeanFactory beans) {
      return beans.getBeanProvider(Tracer.class).stream().anyMatch(tracer -> tracer != Tracer.NOOP);
    }
  }
}
