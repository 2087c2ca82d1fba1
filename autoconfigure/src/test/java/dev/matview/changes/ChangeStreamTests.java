package dev.matview.changes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.replica.StoreChange;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** A key's change stream: what it delivers when it starts from the updates it missed. */
class ChangeStreamTests {

  private final List<ChangeEvent> sent = new CopyOnWriteArrayList<>();

  @Test
  void aKeysStreamThatGoesOnAfterAnIdDeliversOnlyItsKeysMissedUpdatesAndThenItsNewOnes() {
    ChangeStream stream = streamOf("a");

    stream.changed(change("b", "7", 13));
    stream.start(
        List.of(),
        List.of(change("a", "2", 11), change("b", "6", 12), change("a", "3", 13)),
        10,
        0,
        "a@10.0");
    stream.changed(change("b", "8", 14));
    stream.changed(change("a", "4", 15));

    assertThat(this.sent).extracting(ChangeEvent::data).containsExactly("a=2", "a=3", "a=4");
    assertThat(this.sent).extracting(ChangeEvent::id).containsExactly("11.0", "13.0", "15.0");
  }

  private ChangeStream streamOf(String key) {
    return new ChangeStream(
        key.getBytes(StandardCharsets.UTF_8),
        100,
        (change, id) ->
            new ChangeEvent(
                ChangeEvent.Kind.VALUE,
                new String(change.key(), StandardCharsets.UTF_8)
                    + "="
                    + new String(change.value(), StandardCharsets.UTF_8),
                id),
        (change) -> change.offset() + "." + change.sequence(),
        new ListSink(this.sent),
        Runnable::run,
        () -> {});
  }

  private static StoreChange change(String key, String value, long offset) {
    return new StoreChange(
        key.getBytes(StandardCharsets.UTF_8),
        value.getBytes(StandardCharsets.UTF_8),
        StoreChange.NO_WINDOW,
        StoreChange.NO_WINDOW,
        offset,
        0);
  }

  /** Keeps every event sent. */
  private record ListSink(List<ChangeEvent> sent) implements ChangeSink {

    @Override
    public void send(ChangeEvent event) {
      this.sent.add(event);
    }

    @Override
    public void heartbeat() {}

    @Override
    public void close() {}

    @Override
    public void whenGone(Runnable onGone) {}
  }
}
