package dev.matview.topology;

/**
 * Thrown at start-up when a view definition cannot work, naming the view, the problem and the fix.
 */
public class InvalidViewException extends RuntimeException {

  private final String view;

  private final String problem;

  private final String fix;

  /** An exception for view {@code view} saying what is wrong and how to fix it. */
  public InvalidViewException(String view, String problem, String fix) {
    super("Invalid materialized view '" + view + "': " + problem + "; " + fix);
    this.view = view;
    this.problem = problem;
    this.fix = fix;
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
}
