package dev.matview.query;

/** The request named a view that does not exist. */
public class UnknownViewException extends RuntimeException {

  private final String view;

  /** An exception for the unknown view {@code view}. */
  public UnknownViewException(String view) {
    super("There is no view named '" + view + "'; GET the views' base path to list them");
    this.view = view;
  }

  /** The name that matched no view. */
  public String getView() {
    return this.view;
  }
}
