package dev.matview.faults;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * Reads Server-Sent Events from a response body, one event at a time; comments (heartbeats) are
 * read past.
 */
final class ServerSentEvents {

  private final BufferedReader lines;

  ServerSentEvents(InputStream body) {
    this.lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
  }

  /** The next event, or {@code null} when the body ended. */
  @Nullable Event next() throws IOException {
    String name = null;
    String id = null;
    StringBuilder data = null;
    String line;
    while ((line = this.lines.readLine()) != null) {
      if (line.isEmpty()) {
        if (name != null || data != null) {
          return new Event(
              (name != null) ? name : "message", id, (data != null) ? data.toString() : "");
        }
        continue;
      }
      int colon = line.indexOf(':');
      if (colon == 0) {
        continue;
      }
      String field = (colon > 0) ? line.substring(0, colon) : line;
      String value = (colon > 0) ? line.substring(colon + 1) : "";
      if (value.startsWith(" ")) {
        value = value.substring(1);
      }
      switch (field) {
        case "event" -> name = value;
        case "id" -> id = value;
        case "data" ->
            data = (data == null) ? new StringBuilder(value) : data.append('\n').append(value);
        default -> {}
      }
    }
    return null;
  }

  /**
   * One event.
   *
   * @param name its {@code event:} field, {@code message} without one
   * @param id its {@code id:} field, or {@code null}
   * @param data its {@code data:} lines, joined by line breaks
   */
  record Event(String name, @Nullable String id, String data) {}
}
