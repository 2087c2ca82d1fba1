package dev.matview.deadletter;

/** Why a view could not use a record. */
public enum DeadLetterReason {

  /** The record's key or value cannot be deserialized. */
  DESERIALIZATION("deserialization", "it cannot be deserialized"),

  /** The view takes event time from the value, and it is missing or cannot be read. */
  EVENT_TIME("event-time", "its event time is missing or cannot be read"),

  /** The view's function that computes the grouping key threw. */
  GROUPING("grouping", "its grouping key cannot be computed"),

  /** The view's aggregation threw. */
  AGGREGATION("aggregation", "its aggregation failed"),

  /** A processor that belongs to no view threw. */
  PROCESSING("processing", "processing it failed");

  private final String tag;

  private final String description;

  DeadLetterReason(String tag, String description) {
    this.tag = tag;
    this.description = description;
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
