package dev.matview.web;

import dev.matview.changes.ChangeEvent;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Change events as the text of a {@code text/event-stream} response, in UTF-8. */
final class EventStreamText {

  /** A comment that carries nothing, so that a client that went away is noticed. */
  static final byte[] HEARTBEAT = ":\n\n".getBytes(StandardCharsets.UTF_8);

  private EventStreamText() {}

  /** The bytes of {@code events}, each with its name, its id when it has one, and its data. */
  static byte[] of(List<ChangeEvent> events) {
    StringBuilder text = new StringBuilder();
    for (ChangeEvent event : events) {
      text.append("event:").append(event.kind().label()).append('\n');
      String id = event.id();
      if (id != null) {
        text.append("id:").append(id).append('\n');
      }
      for (String line : event.data().split("\n", -1)) {
        text.append("data:").append(line).append('\n');
      }
      text.append('\n');
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }
}
