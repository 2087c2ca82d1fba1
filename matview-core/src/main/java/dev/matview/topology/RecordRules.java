package dev.matview.topology;

import java.util.function.Supplier;

/**
 * What the views do with records they cannot use, besides sending them to the dead-letter topic.
 *
 * @param eventTime the event times the views accept
 * @param deadLetterLate whether a record that arrives after all its windows, or the session it
 *     would join, closed is a dead letter (else it is only counted)
 * @param drops told of records left out without a dead letter
 * @param maxChangelogRecordBytes the largest changelog record, the producer's {@code
 *     max.request.size} or a smaller {@code topic.max.message.bytes}: an aggregate whose changelog
 *     record would be larger is refused before its store keeps it
 */
public record RecordRules(
    EventTimeBounds eventTime,
    boolean deadLetterLate,
    RecordDrops drops,
    int maxChangelogRecordBytes) {

  /** The producer's default {@code max.request.size}, 1 MB. */
  public static final int DEFAULT_MAX_CHANGELOG_RECORD_BYTES = 1_048_576;

  /**
   * The standard event time bounds, late records as dead letters, drops told to nobody, and the
   * producer's default size limit.
   */
  public static final RecordRules STANDARD =
      new RecordRules(EventTimeBounds.STANDARD, true, RecordDrops.NONE);

  /**
   * Leaves out a record that arrived after every window it belongs to closed: throws {@code letter}
   * so that it becomes a dead letter, or only counts it when late records are not dead letters.
   */
  void refuseLate(String view, Supplier<RecordDecodingException> letter) {
    if (this.deadLetterLate) {
      throw letter.get();
    }
    this.drops.dropped(view, RecordDrops.LATE);
  }

  /** Rules with changelog records limited to the producer's default {@code max.request.size}. */
  public RecordRules(EventTimeBounds eventTime, boolean deadLetterLate, RecordDrops drops) {
    this(eventTime, deadLetterLate, drops, DEFAULT_MAX_CHANGELOG_RECORD_BYTES);
  }
}
