package dev.matview.autoconfigure;

import dev.matview.view.StartupFailure;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * A property Matview reads that holds a value Matview cannot work with: names the property, says
 * what is wrong with the value and how to set it instead.
 */
final class InvalidMatviewPropertyException extends InvalidConfigurationPropertyValueException
    implements StartupFailure {

  private static final long serialVersionUID = 1L;

  private final String problem;

  private final String fix;

  /**
   * Property {@code name} holds {@code value}, which has {@code problem}; {@code fix} says what to
   * set (both without their full stop).
   */
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

  /**
   * {@code name} lies outside {@code range}, as in "between 0 and 60s": suggests {@code example}.
   */
  static InvalidMatviewPropertyException outside(
      String name, Object value, String range, String example) {
    return new InvalidMatviewPropertyException(
        name,
        value,
        "it must lie " + range,
        "Set " + name + " " + range + ", for example " + example);
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
