package dev.matview.changes;

import org.jspecify.annotations.Nullable;

/**
 * One event of a change stream: its kind, its data as JSON, and its id (the position after it, with
 * the update's place among those of one record), or none.
 */
public record ChangeEvent(Kind kind, String data, @Nullable String id) {

  /**
   * The last event of a stream that ends for {@code why}: {@code kind} says whether to reconnect at
   * once or read faster, and the data names {@code lastEventId} to reconnect with.
   */
  static ChangeEvent ending(Kind kind, String why, @Nullable String lastEventId) {
    String last = (lastEventId != null) ? "\"" + lastEventId + "\"" : "null";
    return new ChangeEvent(kind, "{\"reason\":\"" + why + "\",\"lastEventId\":" + last + "}", null);
  }

  /** What an event says. */
  public enum Kind {
    /** A key's value, the current one when a stream starts or a new one. */
    VALUE("value"),
    /** The key has no value: when a stream starts, or because it was removed. */
    DELETED("deleted"),
    /** A key's windows when a stream of a windowed or session view starts. */
    WINDOWS("windows"),
    /** One window's new value, with its bounds. */
    WINDOW("window"),
    /** A window that no longer exists (a session merged into another). */
    WINDOW_DELETED("window-deleted"),
    /** The stream could not go on from the id it was asked to: it starts again from now. */
    SKIPPED("skipped"),
    /** The partition moved or the instance stops: reconnect with the last id. */
    RECONNECT("reconnect"),
    /** The client read too slowly: the stream ends; reconnect with the last id. */
    DROPPED("dropped");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    /** The event's name on the stream. */
    public String label() {
      return this.label;
    }

    /** Whether the stream ends after an event of this kind. */
    public boolean ends() {
      return this == RECONNECT || this == DROPPED;
    }
  }
}
