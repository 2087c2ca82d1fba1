package dev.matview.view;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The window of a windowed view: tumbling, hopping or session, with its grace period and how long
 * windows are retained in the store.
 */
public final class ViewWindow {

  /** The kinds of window a view may use. */
  public enum Type {
    /** Fixed-size windows that do not overlap. */
    TUMBLING,
    /** Fixed-size windows that advance by less than their size and so overlap. */
    HOPPING,
    /** Windows per key that close after a gap of inactivity. */
    SESSION
  }

  private final Type type;

  private final Duration size;

  private final Duration advance;

  private final Duration grace;

  private final @Nullable Duration retention;

  private ViewWindow(
      Type type, Duration size, Duration advance, Duration grace, @Nullable Duration retention) {
    this.type = type;
    this.size = size;
    this.advance = advance;
    this.grace = grace;
    this.retention = retention;
  }

  /** Windows of {@code size} that follow each other without overlap. */
  public static ViewWindow tumbling(Duration size) {
    requirePositive(size, "size", "ViewWindow.tumbling(size)");
    return new ViewWindow(Type.TUMBLING, size, size, Duration.ZERO, null);
  }

  /** Windows of {@code size} that start every {@code advance}. */
  public static ViewWindow hopping(Duration size, Duration advance) {
    requirePositive(size, "size", "ViewWindow.hopping(size, advance)");
    requirePositive(advance, "advance", "ViewWindow.hopping(size, advance)");
    if (advance.compareTo(size) > 0) {
      throw new ViewDefinitionException(
          "a hopping window's advance (" + advance + ") exceeds its size (" + size + ")",
          "give ViewWindow.hopping(size, advance) an advance of at most its size, or use"
              + " ViewWindow.tumbling(size) for windows that follow each other");
    }
    return new ViewWindow(Type.HOPPING, size, advance, Duration.ZERO, null);
  }

  /** Sessions per key that end after {@code inactivityGap} without records. */
  public static ViewWindow session(Duration inactivityGap) {
    requirePositive(inactivityGap, "inactivityGap", "ViewWindow.session(inactivityGap)");
    return new ViewWindow(Type.SESSION, inactivityGap, inactivityGap, Duration.ZERO, null);
  }

  /** This window accepting records up to {@code grace} after the window closed. */
  public ViewWindow withGrace(Duration grace) {
    ViewDefinitionException.required(grace, "grace", "withGrace(grace)");
    if (grace.isNegative()) {
      throw new ViewDefinitionException(
          "a window's grace is negative (" + grace + ")",
          "give withGrace(grace) zero or more, for example Duration.ofSeconds(10)");
    }
    return new ViewWindow(this.type, this.size, this.advance, grace, this.retention);
  }

  /** This window with its results kept in the store for {@code retention}. */
  public ViewWindow withRetention(Duration retention) {
    requirePositive(retention, "retention", "withRetention(retention)");
    return new ViewWindow(this.type, this.size, this.advance, this.grace, retention);
  }

  /** The kind of window. */
  public Type type() {
    return this.type;
  }

  /** The window's size, or the inactivity gap of a session window. */
  public Duration size() {
    return this.size;
  }

  /** How far each window starts after the previous one (the size for tumbling windows). */
  public Duration advance() {
    return this.advance;
  }

  /** How late a record may arrive after its window ended and still count. */
  public Duration grace() {
    return this.grace;
  }

  /** How long windows stay in the store, or {@code null} for the default. */
  public @Nullable Duration retention() {
    return this.retention;
  }

  /** The retention in effect: the one set, else one day or size plus grace if that is longer. */
  public Duration effectiveRetention() {
    if (this.retention != null) {
      return this.retention;
    }
    Duration minimum = this.size.plus(this.grace);
    Duration oneDay = Duration.ofDays(1);
    return minimum.compareTo(oneDay) > 0 ? minimum : oneDay;
  }

  private static void requirePositive(Duration duration, String name, String method) {
    ViewDefinitionException.required(duration, name, method);
    if (duration.isZero() || duration.isNegative()) {
      throw new ViewDefinitionException(
          method + " was given a " + name + " of " + duration,
          "give it a " + name + " longer than zero, for example Duration.ofMinutes(1)");
    }
  }

  @Override
  public String toString() {
    return this.type.name().toLowerCase(java.util.Locale.ROOT)
        + "(size="
        + this.size
        + ", advance="
        + this.advance
        + ", grace="
        + this.grace
        + ", retention="
        + effectiveRetention()
        + ")";
  }
}
