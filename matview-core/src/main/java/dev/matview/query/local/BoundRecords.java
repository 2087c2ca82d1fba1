package dev.matview.query.local;

import dev.matview.position.InputRecord;
import dev.matview.position.ReadBound;
import dev.matview.query.answer.InvalidQueryException;
import dev.matview.topology.ResolvedView;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Refuses a record that a bound names ({@code after=}) when no replica can ever read it: of another
 * topic than the view's source, of a partition the topic lacks, or beyond its partition's end; the
 * last two as the broker tells, without a thread waiting for it.
 */
final class BoundRecords {

  private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

  private final @Nullable SourceRecords sources;

  BoundRecords(@Nullable SourceRecords sources) {
    this.sources = sources;
  }

  /**
   * Completes once every record of {@code bound} is known written; fails naming one that is not.
   */
  CompletableFuture<Void> written(ResolvedView<?, ?, ?> view, ReadBound bound) {
    CompletableFuture<Void> all = DONE;
    for (InputRecord record : bound.records()) {
      try {
        requireOfSource(view, record);
      } catch (InvalidQueryException ex) {
        return CompletableFuture.failedFuture(ex);
      }
      SourceRecords known = this.sources;
      if (known != null) {
        CompletableFuture<Void> written = known.written(view, record);
        all = all.thenCombine(written, (before, now) -> null);
      }
    }
    return all;
  }

  /** Refuses {@code record} unless it is of {@code view}'s source topic. */
  void requireOfSource(ResolvedView<?, ?, ?> view, InputRecord record) {
    if (!record.topic().equals(view.sourceTopic())) {
      throw new InvalidQueryException(
          view.name(),
          "after",
          "after="
              + record
              + " names a record of topic '"
              + record.topic()
              + "', but view '"
              + view.name()
              + "' reads topic '"
              + view.sourceTopic()
              + "'");
    }
  }
}
