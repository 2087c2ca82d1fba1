package dev.matview.conformance;

import dev.matview.conformance.ConformanceApp.Event;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * One kind of view: a row of the matrix. It says what the view is (source topic, key, window,
 * aggregation) as the expected-value model needs it; {@link ConformanceApp} declares the same view
 * with Matview's API.
 *
 * @param name the view's name
 * @param topic its source topic
 * @param keyKind the type of its key
 * @param grouped whether it groups by a field of the value (a repartition topic) rather than by the
 *     record key
 * @param window its window, or {@link WindowSpec#NONE}
 * @param fold its aggregation, in plain Java
 */
record ViewKind(
    String name, String topic, KeyKind keyKind, boolean grouped, WindowSpec window, Fold fold) {

  /** The view's kind as {@code GET /views} names it. */
  String kindLabel() {
    return switch (this.window.type()) {
      case NONE -> "table";
      case TUMBLING, HOPPING -> "windowed";
      case SESSION -> "session";
    };
  }

  boolean table() {
    return this.window.type() == WindowSpec.Type.NONE;
  }

  /**
   * A window as the model needs it.
   *
   * @param type the kind of window
   * @param size its size, or a session's inactivity gap
   * @param advance how far each window starts after the previous one
   * @param grace how late a record may be and still count
   */
  record WindowSpec(Type type, Duration size, Duration advance, Duration grace) {

    static final WindowSpec NONE =
        new WindowSpec(Type.NONE, Duration.ZERO, Duration.ZERO, Duration.ZERO);

    static WindowSpec tumbling(Duration size, Duration grace) {
      return new WindowSpec(Type.TUMBLING, size, size, grace);
    }

    static WindowSpec hopping(Duration size, Duration advance, Duration grace) {
      return new WindowSpec(Type.HOPPING, size, advance, grace);
    }

    static WindowSpec session(Duration gap, Duration grace) {
      return new WindowSpec(Type.SESSION, gap, gap, grace);
    }

    enum Type {
      NONE,
      TUMBLING,
      HOPPING,
      SESSION
    }
  }

  /** An aggregation in plain Java: what a view's value must be after each record. */
  interface Fold {

    @Nullable Object initial();

    Object add(@Nullable Object aggregate, Event event);

    /** Two sessions' aggregates, older first. */
    default Object merge(@Nullable Object older, Object newer) {
      throw new UnsupportedOperationException("Only session views merge");
    }
  }
}
