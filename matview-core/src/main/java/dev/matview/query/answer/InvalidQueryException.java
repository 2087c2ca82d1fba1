package dev.matview.query.answer;

/** A request parameter cannot be parsed or is out of range. */
public class InvalidQueryException extends RuntimeException {

  private final String view;

  private final String parameter;

  /** An exception for {@code parameter} of a request to {@code view}, saying what was wrong. */
  public InvalidQueryException(String view, String parameter, String detail) {
    super(detail);
    this.view = view;
    this.parameter = parameter;
  }

  /** The view the request was for. */
  public String getView() {
    return this.view;
  }

  /** The parameter that was wrong, such as {@code key} or {@code from}. */
  public String getParameter() {
    return this.parameter;
  }
}
