package dev.matview.client;

import org.jspecify.annotations.Nullable;

/** The server has no view of the name called (404, {@code unknown-view}). */
public class MatviewUnknownViewException extends MatviewClientException {

  private static final long serialVersionUID = 1L;

  /** An exception for a call of {@code view}, which the server does not know. */
  public MatviewUnknownViewException(
      String message, String view, @Nullable MatviewProblem problem) {
    super(message, view, 404, problem, null);
  }
}
