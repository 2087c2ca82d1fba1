package dev.matview.autoconfigure;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import org.springframework.util.ClassUtils;
import org.springframework.util.unit.DataSize;

/**
 * How a property's type is written in configuration ("a duration"), with examples ("for example
 * 500ms, 2s or 1m"), for a value that could not be read.
 */
record ValueForm(String kind, String example) {

  /** How values of {@code type} are written. */
  static ValueForm of(Class<?> type) {
    Class<?> boxed = ClassUtils.resolvePrimitiveIfNecessary(type);
    if (boxed == Duration.class) {
      return new ValueForm(
          "a duration", "for example 500ms, 2s or 1m (a number alone is milliseconds)");
    }
    if (boxed == DataSize.class) {
      return new ValueForm(
          "a data size", "for example 512KB, 256MB or 1GB (a number alone is bytes)");
    }
    if (boxed == Integer.class || boxed == Long.class || boxed == Short.class) {
      return new ValueForm("a whole number", "for example 1000, without a unit");
    }
    if (boxed == Double.class || boxed == Float.class) {
      return new ValueForm("a number", "for example 0.25");
    }
    if (boxed == Boolean.class) {
      return new ValueForm("true or false", "for example false");
    }
    if (type.isEnum() && type.getEnumConstants().length > 0) {
      String[] names =
          Arrays.stream(type.getEnumConstants())
              .map(constant -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT))
              .toArray(String[]::new);
      return new ValueForm("one of " + String.join(", ", names), "for example " + names[0]);
    }
    return new ValueForm(
        "a " + type.getSimpleName(),
        "as the property's description in the guide's docs/properties.md says");
  }
}
