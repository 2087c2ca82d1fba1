package dev.matview.web;

import dev.matview.position.ReadBound;
import java.util.concurrent.CompletableFuture;

/**
 * Whether the records a request names with {@code after=} are written to its view's source topic,
 * as the broker tells, so that one no replica will ever apply is refused at once rather than waited
 * for.
 */
@FunctionalInterface
public interface WrittenRecords {

  /** Takes every record as written: a read naming one that is not waits out its bound. */
  WrittenRecords UNCHECKED = (view, bound) -> CompletableFuture.completedFuture(null);

  /**
   * Completes once the records {@code bound} names are known to be written to view {@code view}'s
   * source, or none can tell; fails with the {@link dev.matview.query.answer.InvalidQueryException}
   * that names a record no replica can read.
   */
  CompletableFuture<Void> written(String view, ReadBound bound);
}
