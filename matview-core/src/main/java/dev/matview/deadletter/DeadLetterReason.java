package dev.matview.deadletter;

import dev.matview.topology.AggregateTooLargeException;
import dev.matview.topology.RecordDecodingException;
import dev.matview.view.NumberOutOfBoundsException;
import org.jspecify.annotations.Nullable;

/** Why a view could not use a record. */
public enum DeadLetterReason {

  /** The record's key or value cannot be deserialized. */
  DESERIALIZATION("deserialization", "it cannot be deserialized"),

  /**
   * The record's event time is missing, cannot be read, or lies outside what Kafka accepts or
   * further ahead than matview.records.max-event-time-ahead.
   */
  EVENT_TIME("event-time", "its event time is missing, unreadable or out of range"),

  /** A decimal in the record, or the sum it would make, lies outside the configured bounds. */
  NUMBER_OUT_OF_BOUNDS("number-out-of-bounds", "a number in it lies outside the decimal bounds"),

  /** The view's record key, or the grouping key computed from the value, is null. */
  NULL_KEY("null-key", "its grouping key is null"),

  /** The record's value reads as null (the JSON {@code null}). */
  NULL_VALUE("null-value", "its value is null"),

  /** The record arrived after every window it belongs to had closed. */
  LATE("late", "it arrived after its window closed"),

  /** Writing the record, or what a view made of it, to a Kafka topic failed. */
  PRODUCTION("production", "writing it to a topic failed"),

  /** The view's function that computes the grouping key threw. */
  GROUPING("grouping", "its grouping key cannot be computed"),

  /** The view's aggregation threw. */
  AGGREGATION("aggregation", "its aggregation failed"),

  /**
   * The aggregate the record would make is too large for the view's changelog topic; the view keeps
   * its previous aggregate.
   */
  AGGREGATE_TOO_LARGE("aggregate-too-large", "its aggregate is too large for the changelog"),

  /** A processor that belongs to no view threw. */
  PROCESSING("processing", "processing it failed");

  private final String tag;

  private final String description;

  DeadLetterReason(String tag, String description) {
    this.tag = tag;
    this.description = description;
  }

  /**
   * The reason that {@code exception} or one of its causes states: a refused number, an aggregate
   * too large for its changelog, or a record that a view could not decode; null when none does.
   */
  static @Nullable DeadLetterReason of(Throwable exception) {
    Throwable cause = exception;
    for (int depth = 0; cause != null && depth < 16; depth++) {
      if (cause instanceof NumberOutOfBoundsException) {
        return NUMBER_OUT_OF_BOUNDS;
      }
      if (cause instanceof AggregateTooLargeException) {
        return AGGREGATE_TOO_LARGE;
      }
      cause = cause.getCause();
    }
    if (exception instanceof RecordDecodingException decoding) {
      return switch (decoding.problem()) {
        case UNREADABLE_VALUE -> DESERIALIZATION;
        case EVENT_TIME -> EVENT_TIME;
        case NULL_KEY -> NULL_KEY;
        case NULL_VALUE -> NULL_VALUE;
        case LATE -> LATE;
      };
    }
    return null;
  }

  /** The reason as written in the dead letter's header and the metric's tag. */
  public String tag() {
    return this.tag;
  }

  /** Why the record was not used, as a clause that follows "because". */
  String description() {
    return this.description;
  }
}
