package dev.matview.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.processes.http.ServerSentEvent;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** How a change stream's body is read into events. */
class ServerSentEventsTests {

  @Test
  void readsEachEventsNameIdAndDataAndReadsPastHeartbeats() throws IOException {
    ServerSentEvents events =
        read(
            "event:value\nid:abc.0\ndata:{\"key\":\"a\",\"value\":1}\n\n"
                + ":\n\n"
                + "event: reconnect\ndata: {\"lastEventId\":\"abc.0\"}\n\n"
                + "data:one\ndata:two\n\n");

    assertThat(events.next())
        .isEqualTo(new ServerSentEvent("value", "abc.0", "{\"key\":\"a\",\"value\":1}"));
    assertThat(events.next())
        .isEqualTo(new ServerSentEvent("reconnect", null, "{\"lastEventId\":\"abc.0\"}"));
    assertThat(events.next()).isEqualTo(new ServerSentEvent("message", null, "one\ntwo"));
    assertThat(events.next()).isNull();
  }

  @Test
  void anEventCutOffBeforeItsBlankLineIsNotRead() throws IOException {
    assertThat(read("event:value\nid:abc.0\ndata:{\"value\":1}\n").next()).isNull();
  }

  private static ServerSentEvents read(String body) {
    return new ServerSentEvents(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
  }
}
