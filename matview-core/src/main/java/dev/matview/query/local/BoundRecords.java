package dev.matview.query.local;

import dev.matview.position.InputRecord;
import dev.matview.query.answer.InvalidQueryException;
import dev.matview.topology.ResolvedView;
import org.jspecify.annotations.Nullable;

/**
 * Refuses a record that a bound names ({@code after=}) when no replica can ever read it: of another
 * topic than the view's source, of a partition the topic lacks, or beyond its partition's end.
 */
final class BoundRecords {

  private final @Nullable SourceRecords sources;

  /**
   * Checks records against the view's source topic, and asks {@code sources}, when given, the rest.
   */
  BoundRecords(@Nullable SourceRecords sources) {
    this.sources = sources;
  }

  /**
   * Refuses {@code record} unless a replica of {@code view} can read it.
   *
   * @throws InvalidQueryException naming the record and why
   */
  void requireReadable(ResolvedView<?, ?, ?> view, InputRecord record) {
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
    SourceRecords known = this.sources;
    if (known != null) {
      known.requireWritten(view, record);
    }
  }
}
