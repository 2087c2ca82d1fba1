package dev.matview.client;

import org.jspecify.annotations.Nullable;

/**
 * The server refused a call as malformed or out of range: 400, or 413, 414 and 415 for a batch body
 * or a key too large; the problem detail says which parameter and why.
 */
public class MatviewBadRequestException extends MatviewClientException {

  private static final long serialVersionUID = 1L;

  /** An exception for a call of {@code view} refused with {@code status} and {@code problem}. */
  public MatviewBadRequestException(
      String message, String view, int status, @Nullable MatviewProblem problem) {
    super(message, view, status, problem, null);
  }
}
