package dev.matview.processes.http;

import org.jspecify.annotations.Nullable;

/**
 * Assembles the lines of a {@code text/event-stream} body, as they are read, into events: a blank
 * line ends an event, comments (heartbeats) and unknown fields are read past.
 */
public final class ServerSentEventLines {

  private @Nullable String name;

  private @Nullable String id;

  private @Nullable StringBuilder data;

  /** Takes the next line, without its line break; the event it ends, if it ends one. */
  public @Nullable ServerSentEvent line(String line) {
    if (line.isEmpty()) {
      return end();
    }
    int colon = line.indexOf(':');
    if (colon == 0) {
      return null;
    }
    String field = (colon > 0) ? line.substring(0, colon) : line;
    String value = (colon > 0) ? line.substring(colon + 1) : "";
    if (value.startsWith(" ")) {
      value = value.substring(1);
    }
    switch (field) {
      case "event" -> this.name = value;
      case "id" -> this.id = value;
      case "data" -> {
        StringBuilder lines = this.data;
        this.data = (lines == null) ? new StringBuilder(value) : lines.append('\n').append(value);
      }
      default -> {}
    }
    return null;
  }

  private @Nullable ServerSentEvent end() {
    String ended = this.name;
    StringBuilder lines = this.data;
    this.name = null;
    this.data = null;
    String lastId = this.id;
    this.id = null;
    if (ended == null && lines == null) {
      return null;
    }
    return new ServerSentEvent(
        (ended != null) ? ended : "message", lastId, (lines != null) ? lines.toString() : "");
  }
}
