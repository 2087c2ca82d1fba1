package dev.matview.client;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * No replica could answer a call before its deadline: the server said 503 (rebalancing, restoring,
 * a lag or a position not reached in time) or 429 (too many streams), and the {@code Retry-After}
 * it gave would have run past the deadline.
 */
public class MatviewUnavailableException extends MatviewClientException {

  private static final long serialVersionUID = 1L;

  private final Duration retryAfter;

  /** An exception for the last refusal of a call of {@code view}, which said {@code retryAfter}. */
  public MatviewUnavailableException(
      String message,
      String view,
      int status,
      @Nullable MatviewProblem problem,
      Duration retryAfter) {
    super(message, view, status, problem, null);
    this.retryAfter = retryAfter;
  }

  /** How long the server said to wait before asking again. */
  public Duration retryAfter() {
    return this.retryAfter;
  }
}
