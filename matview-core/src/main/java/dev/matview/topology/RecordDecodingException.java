package dev.matview.topology;

import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Thrown when a view cannot use a source record: its value cannot be read or is null, its key is
 * null, or its event time is missing, unreadable or out of range; Kafka Streams' processing
 * exception handler decides what follows.
 */
public final class RecordDecodingException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** What was wrong with the record. */
  public enum Problem {
    /** The value cannot be read. */
    UNREADABLE_VALUE,
    /** The event time is missing, cannot be read or is out of range. */
    EVENT_TIME,
    /** The key the view groups by is null. */
    NULL_KEY,
    /** The value reads as null. */
    NULL_VALUE,
    /**
     * Every window the record belongs to had closed when it arrived, or the session it would join
     * had.
     */
    LATE
  }

  private final String view;

  private final Problem problem;

  /**
   * {@code problem} with a record of {@code view}, {@code what} saying what the view did with it.
   */
  private RecordDecodingException(
      String view, Problem problem, String what, @Nullable Throwable cause) {
    super("View '" + view + "' " + what, cause);
    this.view = view;
    this.problem = problem;
  }

  /** The record's value cannot be read by the view's value deserializer. */
  public static RecordDecodingException unreadableValue(String view, RuntimeException cause) {
    return new RecordDecodingException(
        view, Problem.UNREADABLE_VALUE, "cannot read the record's value: " + cause, cause);
  }

  /** The view's event time function threw. */
  public static RecordDecodingException unreadableEventTime(String view, RuntimeException cause) {
    return new RecordDecodingException(
        view, Problem.EVENT_TIME, "cannot read the record's event time: " + cause, cause);
  }

  /** The view's event time function returned null. */
  public static RecordDecodingException missingEventTime(String view) {
    return new RecordDecodingException(
        view, Problem.EVENT_TIME, "found no event time in the record", null);
  }

  /** The record's event time is before 1970 or further ahead than {@code maxAhead}. */
  public static RecordDecodingException eventTimeOutOfRange(
      String view, long eventTime, Instant now, Duration maxAhead) {
    return eventTimeOutOfRange(view, Instant.ofEpochMilli(eventTime).toString(), now, maxAhead);
  }

  /**
   * The record's event time, {@code time}, is before 1970 or further ahead than {@code maxAhead}.
   */
  public static RecordDecodingException eventTimeOutOfRange(
      String view, String time, Instant now, Duration maxAhead) {
    return new RecordDecodingException(
        view,
        Problem.EVENT_TIME,
        "refused the record's event time "
            + time
            + ": it must lie between 1970-01-01T00:00:00Z (Kafka stores no earlier timestamp) and "
            + maxAhead
            + " after this instance's clock ("
            + now
            + ", matview.records.max-event-time-ahead); a time in seconds read as milliseconds,"
            + " or the reverse, is a common cause",
        null);
  }

  /** The key the view groups by is null. */
  public static RecordDecodingException nullKey(String view, boolean computed) {
    return new RecordDecodingException(
        view,
        Problem.NULL_KEY,
        "cannot group the record: "
            + (computed ? "the grouping key computed from its value" : "its key")
            + " is null",
        null);
  }

  /** The record's value reads as null, such as the JSON {@code null}. */
  public static RecordDecodingException nullValue(String view) {
    return new RecordDecodingException(
        view, Problem.NULL_VALUE, "read a null value from the record", null);
  }

  /** Every window of the record had closed: its end plus grace was not after stream time. */
  public static RecordDecodingException late(
      String view, long eventTime, long streamTime, Duration grace) {
    return late(
        view,
        "window closed: its event time "
            + Instant.ofEpochMilli(eventTime)
            + " lies more than the grace of "
            + grace,
        streamTime);
  }

  /**
   * Kafka Streams dropped the record from a session-windowed view as late: the session it would
   * make, merged with the sessions it joins, ends more than the inactivity gap plus grace before
   * stream time.
   */
  public static RecordDecodingException lateForSession(
      String view, long eventTime, long streamTime, Duration inactivityGap, Duration grace) {
    return late(
        view,
        "session closed: its event time "
            + Instant.ofEpochMilli(eventTime)
            + ", and the end of any session it would join, lie more than the inactivity gap of "
            + inactivityGap
            + " plus the grace of "
            + grace,
        streamTime);
  }

  /** The record came after its {@code closed}, that far behind {@code streamTime}. */
  private static RecordDecodingException late(String view, String closed, long streamTime) {
    return new RecordDecodingException(
        view,
        Problem.LATE,
        "received the record after its "
            + closed
            + " behind the stream time "
            + Instant.ofEpochMilli(streamTime)
            + "; a record whose event time lies far ahead moves stream time on, and records after"
            + " it count as late",
        null);
  }

  /** The name of the view that could not use the record. */
  public String view() {
    return this.view;
  }

  /** What was wrong with the record. */
  public Problem problem() {
    return this.problem;
  }

  /** Whether the event time, rather than the value, is what could not be used. */
  public boolean isEventTime() {
    return this.problem == Problem.EVENT_TIME;
  }
}
