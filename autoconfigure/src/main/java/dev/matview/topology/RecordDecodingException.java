package dev.matview.topology;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a view cannot use a source record because its value cannot be read or its event time
 * is missing or cannot be read; Kafka Streams' processing exception handler decides what follows.
 */
public final class RecordDecodingException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String view;

  private final boolean eventTime;

  private RecordDecodingException(
      String view, boolean eventTime, String message, @Nullable Throwable cause) {
    super(message, cause);
    this.view = view;
    this.eventTime = eventTime;
  }

  /** The record's value cannot be read by the view's value deserializer. */
  public static RecordDecodingException unreadableValue(String view, RuntimeException cause) {
    return new RecordDecodingException(
        view, false, "View '" + view + "' cannot read the record's value: " + cause, cause);
  }

  /** The view's event time function threw. */
  public static RecordDecodingException unreadableEventTime(String view, RuntimeException cause) {
    return new RecordDecodingException(
        view, true, "View '" + view + "' cannot read the record's event time: " + cause, cause);
  }

  /** The view's event time function returned null. */
  public static RecordDecodingException missingEventTime(String view) {
    return new RecordDecodingException(
        view, true, "View '" + view + "' found no event time in the record", null);
  }

  /** The name of the view that could not use the record. */
  public String view() {
    return this.view;
  }

  /** Whether the event time, rather than the value, is what could not be read. */
  public boolean isEventTime() {
    return this.eventTime;
  }
}
