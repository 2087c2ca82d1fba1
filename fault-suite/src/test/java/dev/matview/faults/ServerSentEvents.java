package dev.matview.faults;

import dev.matview.processes.http.ServerSentEvent;
import dev.matview.processes.http.ServerSentEventLines;
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

  private final ServerSentEventLines events = new ServerSentEventLines();

  ServerSentEvents(InputStream body) {
    this.lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
  }

  /** The next event, or {@code null} when the body ended. */
  @Nullable ServerSentEvent next() throws IOException {
    String line;
    while ((line = this.lines.readLine()) != null) {
      ServerSentEvent event = this.events.line(line);
      if (event != null) {
        return event;
      }
    }
    return null;
  }
}
