package dev.matview.web;

import dev.matview.position.ReadBound;
import java.util.concurrent.CompletableFuture;

/**
 * Whether the records named with {@code after=} are written, so one no replica will ever apply is
 * refused at once rather than waited for.
 */
@FunctionalInterface
public interface WrittenRecords {

  /** Takes every record as written: a read naming one that is not waits out its bound. */
  WrittenRecords UNCHECKED = (view, bound) -> CompletableFuture.completedFuture(null);

  /**
   * Completes once the records {@code bound} names are known to be written, or none can tell; fails
   * with the {@link dev.matview.query.answer.InvalidQueryException} of one no replica can read.
   */
  CompletableFuture<Void> written(String view, ReadBound bound);
}
