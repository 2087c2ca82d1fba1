package dev.matview.autoconfigure;

import dev.matview.view.StartupFailure;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/** A value Matview cannot work with: names the property, what is wrong and how to set it. */
final class InvalidMatviewPropertyException extends InvalidConfigurationPropertyValueException
    implements StartupFailure {

  private static final long serialVersionUID = 1L;

  private final String problem;

  private final String fix;

  /** {@code name} holds {@code value}, which has {@code problem}; {@code fix} says what to set. */
  InvalidMatviewPropertyException(String name, @Nullable Object value, String problem, String fix) {
    super(name, value, sentence(problem) + " " + sentence(fix));
    this.problem = problem;
    this.fix = fix;
  }

  /** {@code name} is below {@code least}: the fix suggests {@code example}. */
  static InvalidMatviewPropertyException atLeast(
      String name, Object value, String least, String example) {
    return new InvalidMatviewPropertyException(
        name,
        value,
        "it must be at least " + least,
        "Set " + name + " to " + least + " or more, for example " + example);
  }

  /** {@code name} is zero or negative: the fix suggests {@code example}. */
  static InvalidMatviewPropertyException notPositive(String name, Object value, String example) {
    return new InvalidMatviewPropertyException(
        name,
        value,
        "it must be positive",
        "Set " + name + " to more than zero, for example " + example);
  }

  /** {@code name} is negative: the fix suggests {@code example}. */
  static InvalidMatviewPropertyException negative(String name, Object value, String example) {
    return new InvalidMatviewPropertyException(
        name,
        value,
        "it must not be negative",
        "Set " + name + " to zero or more, for example " + example);
  }

  /** {@code name} lies outside {@code range} ("between 0 and 60s"): suggests {@code example}. */
  static InvalidMatviewPropertyException outside(
      String name, Object value, String range, String example) {
    return new InvalidMatviewPropertyException(
        name,
        value,
        "it must lie " + range,
        "Set " + name + " " + range + ", for example " + example);
  }

  /** {@code value} of {@code name}, refused when not positive: suggests {@code example}. */
  static Duration requirePositive(String name, Duration value, String example) {
    if (value.isZero() || value.isNegative()) {
      throw notPositive(name, value, example);
    }
    return value;
  }

  /** {@code value} of {@code name}, refused when negative: the fix suggests {@code example}. */
  static Duration requireNotNegative(String name, Duration value, String example) {
    if (value.isNegative()) {
      throw negative(name, value, example);
    }
    return value;
  }

  /** {@code value} of {@code name}, refused when negative: the fix suggests {@code example}. */
  static long requireNotNegative(String name, long value, String example) {
    if (value < 0) {
      throw negative(name, value, example);
    }
    return value;
  }

  /** {@code value} of {@code name}, refused outside 0 to {@code max}: suggests {@code example}. */
  static Duration requireWithin(String name, Duration value, Duration max, String example) {
    if (value.isNegative() || value.compareTo(max) > 0) {
      throw outside(name, value, "between 0 and " + max.toSeconds() + "s", example);
    }
    return value;
  }

  /** {@code value} of {@code name}, refused when below 1: the fix suggests 1000. */
  static int requireAtLeastOne(String name, int value) {
    if (value < 1) {
      throw atLeast(name, value, "1", "1000");
    }
    return value;
  }

  @Override
  public String getDescription() {
    return "Invalid value '"
        + getValue()
        + "' for configuration property '"
        + getName()
        + "': "
        + this.problem
        + ".";
  }

  @Override
  public String getAction() {
    return sentence(this.fix);
  }

  private static String sentence(String text) {
    String capitalized = Character.toUpperCase(text.charAt(0)) + text.substring(1);
    return capitalized.endsWith(".") ? capitalized : capitalized + ".";
  }
}
