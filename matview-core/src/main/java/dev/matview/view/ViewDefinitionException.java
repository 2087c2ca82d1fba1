package dev.matview.view;

import org.jspecify.annotations.Nullable;

/**
 * Thrown while a view is declared, by {@link Views} and the builders it starts, when an argument
 * cannot make a view: says what is wrong and how to fix it. Thrown from a {@link MaterializedView}
 * method, it fails start-up with a report that names the method.
 */
public class ViewDefinitionException extends IllegalArgumentException implements StartupFailure {

  private static final long serialVersionUID = 1L;

  private final String problem;

  private final String fix;

  /** {@code problem}, a sentence without its full stop, and {@code fix}, likewise. */
  public ViewDefinitionException(String problem, String fix) {
    super(problem + "; " + fix);
    this.problem = problem;
    this.fix = fix;
  }

  /**
   * {@code value}, when it is not null; throws {@link ViewDefinitionException} naming {@code
   * argument} of {@code method} otherwise.
   */
  static <T> T required(@Nullable T value, String argument, String method) {
    if (value == null) {
      throw new ViewDefinitionException(
          method + " was given no " + argument, "pass a " + argument + "; it must not be null");
    }
    return value;
  }

  /** What is wrong. */
  public String getProblem() {
    return this.problem;
  }

  /** How to fix it. */
  public String getFix() {
    return this.fix;
  }

  @Override
  public String getDescription() {
    return "A view's definition is invalid: " + this.problem + ".";
  }

  @Override
  public String getAction() {
    return Character.toUpperCase(this.fix.charAt(0)) + this.fix.substring(1) + ".";
  }
}
