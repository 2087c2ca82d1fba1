package dev.matview.query.scan;

import dev.matview.query.answer.InvalidQueryException;
import org.jspecify.annotations.Nullable;

/** The form in which an instance asks another for a partition slice, its {@code form} parameter. */
public enum SliceForm {

  /** One slice as a JSON object of items, the parameter left out. */
  JSON(null),

  /** One slice as the lines of a streamed scan, then the line of its end. */
  LINES("lines"),

  /** Every slice after the one asked for, as {@link SliceFrames}, to the partition's end. */
  STREAM("stream");

  private final @Nullable String parameter;

  SliceForm(@Nullable String parameter) {
    this.parameter = parameter;
  }

  /** The value of the {@code form} parameter that asks for this form, {@code null} for JSON. */
  public @Nullable String parameter() {
    return this.parameter;
  }

  /** The form {@code form} names; an {@link InvalidQueryException} when it names none. */
  public static SliceForm of(String view, @Nullable String form) {
    if (form == null) {
      return JSON;
    }
    for (SliceForm known : values()) {
      if (form.equals(known.parameter)) {
        return known;
      }
    }
    throw new InvalidQueryException(
        view, "form", "A slice's form is 'lines', 'stream' or left out");
  }
}
