package dev.matview.client;

import org.jspecify.annotations.Nullable;

/**
 * A call of a view that the server refused or answered with what the client cannot read; the
 * subclasses name the refusals a caller may handle.
 */
public class MatviewClientException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String view;

  private final int status;

  private final transient @Nullable MatviewProblem problem;

  /**
   * An exception for a call of {@code view} answered with {@code status} (0 when no answer could be
   * read) and, where the server sent one, {@code problem}.
   */
  public MatviewClientException(
      String message,
      String view,
      int status,
      @Nullable MatviewProblem problem,
      @Nullable Throwable cause) {
    super(message, cause);
    this.view = view;
    this.status = status;
    this.problem = problem;
  }

  /** The view that was called. */
  public String view() {
    return this.view;
  }

  /** The answer's HTTP status, 0 when there was no answer to read. */
  public int status() {
    return this.status;
  }

  /** The problem detail the server answered, {@code null} when it sent none. */
  public @Nullable MatviewProblem problem() {
    return this.problem;
  }
}
