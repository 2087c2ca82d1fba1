package dev.matview.topology;

/**
 * What the views do with records they cannot use, besides sending them to the dead-letter topic.
 *
 * @param eventTime the event times the views accept
 * @param deadLetterLate whether a record that arrives after all its windows closed is a dead letter
 *     (else it is only counted)
 * @param drops told of records left out without a dead letter
 */
public record RecordRules(EventTimeBounds eventTime, boolean deadLetterLate, RecordDrops drops) {

  /** The standard event time bounds, late records as dead letters, drops told to nobody. */
  public static final RecordRules STANDARD =
      new RecordRules(EventTimeBounds.STANDARD, true, RecordDrops.NONE);
}
