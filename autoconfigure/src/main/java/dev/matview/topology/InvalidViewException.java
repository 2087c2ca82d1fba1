package dev.matview.topology;

/** Thrown at start-up when a view definition cannot work, naming the view and the fix. */
public class InvalidViewException extends RuntimeException {

  private final String view;

  /** An exception for view {@code view} with a message that says what is wrong and the fix. */
  public InvalidViewException(String view, String problemAndFix) {
    super("Invalid materialized view '" + view + "': " + problemAndFix);
    this.view = view;
  }

  /** The name of the invalid view. */
  public String getView() {
    return this.view;
  }
}
