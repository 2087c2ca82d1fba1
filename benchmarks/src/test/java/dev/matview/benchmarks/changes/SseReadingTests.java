package dev.matview.benchmarks.changes;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** How row 11's client reads Server-Sent Events and the send times its orders carry. */
class SseReadingTests {

  private final JsonMapper json = JsonMapper.builder().build();

  @Test
  void linesBecomeEventsAndHeartbeatsAreSkipped() {
    List<SseEvent> events = new ArrayList<>();
    SseLineSubscriber lines = new SseLineSubscriber(events::add);
    List.of(
            "event:value",
            "id:abc.0",
            "data:{\"key\":\"order-1\"}",
            "",
            ":",
            "",
            "event: deleted",
            "data: a",
            "data: b",
            "")
        .forEach(lines::onNext);
    assertThat(events).hasSize(2);
    assertThat(events.get(0).name()).isEqualTo("value");
    assertThat(events.get(0).id()).isEqualTo("abc.0");
    assertThat(events.get(0).data()).isEqualTo("{\"key\":\"order-1\"}");
    assertThat(events.get(1).name()).isEqualTo("deleted");
    assertThat(events.get(1).id()).isNull();
    assertThat(events.get(1).data()).isEqualTo("a\nb");
  }

  @Test
  void aSendTimeWrittenAsAnInstantReadsBackToTheNanosecond() {
    SendClock clock = new SendClock();
    long sent = System.nanoTime() + 123_456_789L;
    Instant written = clock.instant(sent);
    assertThat(clock.nanos(this.json.readTree("\"" + written + "\""))).isEqualTo(sent);
  }
}
