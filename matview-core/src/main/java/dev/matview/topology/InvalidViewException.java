package dev.matview.topology;

import dev.matview.view.StartupFailure;
import org.jspecify.annotations.Nullable;

/**
 * Thrown at start-up when a view definition cannot work, naming the view, the problem and the fix,
 * and, once known, the bean that declares the view.
 */
public class InvalidViewException extends RuntimeException implements StartupFailure {

  private final String view;

  private final String problem;

  private final String fix;

  private final @Nullable String declaredBy;

  /** An exception for view {@code view} saying what is wrong and how to fix it. */
  public InvalidViewException(String view, String problem, String fix) {
    this(view, problem, fix, null);
  }

  private InvalidViewException(
      String view, String problem, String fix, @Nullable String declaredBy) {
    super("Invalid materialized view '" + view + "': " + problem + "; " + fix);
    this.view = view;
    this.problem = problem;
    this.fix = fix;
    this.declaredBy = declaredBy;
  }

  /** This exception, saying that {@code declaredBy} (a bean and its method) declares the view. */
  public InvalidViewException declaredBy(String declaredBy) {
    InvalidViewException located =
        new InvalidViewException(this.view, this.problem, this.fix, declaredBy);
    located.setStackTrace(getStackTrace());
    return located;
  }

  /** The name of the invalid view. */
  public String getView() {
    return this.view;
  }

  /** What is wrong with the view. */
  public String getProblem() {
    return this.problem;
  }

  /** How to fix the view. */
  public String getFix() {
    return this.fix;
  }

  /** The bean and method that declare the view, when known. */
  public @Nullable String getDeclaredBy() {
    return this.declaredBy;
  }

  @Override
  public String getDescription() {
    return "Materialized view '"
        + this.view
        + "'"
        + (this.declaredBy != null ? " (" + this.declaredBy + ")" : "")
        + " is invalid: "
        + this.problem
        + ".";
  }

  @Override
  public String getAction() {
    return "Fix the definition of view '" + this.view + "': " + this.fix + ".";
  }
}
