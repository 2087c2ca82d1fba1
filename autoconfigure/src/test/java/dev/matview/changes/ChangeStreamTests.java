package dev.matview.changes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.matview.replica.StoreChange;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A change stream holds at most its buffer for a client, counted in the shared gauge, writes what
 * it holds in batches, and once an update did not fit ends after the last update before it, so that
 * the client can resume from that id without a gap.
 */
class ChangeStreamTests {

  private static final byte[] KEY = "k".getBytes(StandardCharsets.UTF_8);

  private static final byte[] OTHER_KEY = "o".getBytes(StandardCharsets.UTF_8);

  private final Queue<Runnable> dispatcher = new ArrayDeque<>();

  private final Executor dispatch = this.dispatcher::add;

  private final List<List<ChangeEvent>> batches = new ArrayList<>();

  private final AtomicInteger waiting = new AtomicInteger();

  private final AtomicInteger ended = new AtomicInteger();

  private final RecordingSink sink = new RecordingSink();

  @Test
  void writesWhatWaitsInOneBatchAndCountsItWhileItWaits() {
    ChangeStream stream = started(10);
    for (long offset = 1; offset <= 3; offset++) {
      stream.changed(change(offset));
    }
    assertThat(this.waiting).hasValue(3);
    runDispatcher();
    assertThat(this.waiting).hasValue(0);
    assertThat(this.batches).hasSize(1);
    assertThat(this.batches.get(0)).extracting(ChangeEvent::id).containsExactly("1", "2", "3");
    assertThat(this.ended).hasValue(0);
  }

  @Test
  void aClientThatLetsTheBufferFillEndsAfterTheLastUpdateBeforeTheFirstItMissed() {
    ChangeStream stream = started(2);
    for (long offset = 1; offset <= 5; offset++) {
      stream.changed(change(offset));
    }
    assertThat(this.waiting).as("never more than the buffer").hasValue(2);
    runDispatcher();
    List<ChangeEvent> written = this.batches.stream().flatMap(List::stream).toList();
    assertThat(written)
        .extracting(ChangeEvent::kind)
        .containsExactly(ChangeEvent.Kind.VALUE, ChangeEvent.Kind.VALUE, ChangeEvent.Kind.DROPPED);
    assertThat(written.get(2).data()).contains("\"lastEventId\":\"2\"");
    assertThat(this.waiting).hasValue(0);
    assertThat(this.ended).hasValue(1);
    assertThat(this.sink.closed).isTrue();
  }

  @Test
  void aStreamThatEndsLeavesNothingCountedAndTakesNoMoreUpdates() {
    ChangeStream stream = started(10);
    stream.changed(change(1));
    stream.end();
    stream.changed(change(2));
    assertThat(this.waiting).hasValue(0);
    assertThat(this.ended).hasValue(1);
  }

  @Test
  void aKeysStreamThatGoesOnAfterAnIdDeliversOnlyItsKeysMissedUpdatesAndThenItsNewOnes() {
    ChangeStream stream = streamOf(KEY, 100);
    stream.changed(change(OTHER_KEY, 13));
    stream.start(
        List.of(), List.of(change(KEY, 11), change(OTHER_KEY, 12), change(KEY, 13)), 10, 0, "10");
    runDispatcher();
    stream.changed(change(OTHER_KEY, 14));
    stream.changed(change(KEY, 15));
    runDispatcher();
    assertThat(this.batches.stream().flatMap(List::stream))
        .extracting(ChangeEvent::id)
        .containsExactly("11", "13", "15");
  }

  @Test
  void aStreamTheFeedLeftBehindEndsAfterWhatItHadSayingToReconnectWithItsLastId() {
    ChangeStream stream = started(10);
    assertThat(stream.key()).as("the feed hands it only its key's updates").isEqualTo(KEY);
    stream.changed(change(1));
    stream.changed(change(2));
    stream.fellBehind();
    runDispatcher();
    List<ChangeEvent> written = this.batches.stream().flatMap(List::stream).toList();
    assertThat(written)
        .extracting(ChangeEvent::kind)
        .containsExactly(
            ChangeEvent.Kind.VALUE, ChangeEvent.Kind.VALUE, ChangeEvent.Kind.RECONNECT);
    assertThat(written.get(2).data()).contains("\"lastEventId\":\"2\"", "fell too far behind");
    assertThat(this.ended).hasValue(1);
  }

  private ChangeStream started(int buffer) {
    ChangeStream stream = streamOf(KEY, buffer);
    stream.start(List.of(), List.of(), 0, Integer.MAX_VALUE, "0");
    runDispatcher();
    return stream;
  }

  private ChangeStream streamOf(byte[] key, int buffer) {
    return new ChangeStream(
        key,
        buffer,
        this.waiting,
        (change) -> new ChangeEvent(ChangeEvent.Kind.VALUE, "{}", Long.toString(change.offset())),
        this.sink,
        this.dispatch,
        this.ended::incrementAndGet);
  }

  private void runDispatcher() {
    Runnable next;
    while ((next = this.dispatcher.poll()) != null) {
      next.run();
    }
  }

  private static StoreChange change(long offset) {
    return change(KEY, offset);
  }

  private static StoreChange change(byte[] key, long offset) {
    return new StoreChange(key, key, StoreChange.NO_WINDOW, StoreChange.NO_WINDOW, offset, 0);
  }

  private final class RecordingSink implements ChangeSink {

    private boolean closed;

    @Override
    public void send(ChangeEvent event) {
      ChangeStreamTests.this.batches.add(List.of(event));
    }

    @Override
    public void send(List<ChangeEvent> events) {
      ChangeStreamTests.this.batches.add(List.copyOf(events));
    }

    @Override
    public void heartbeat() {}

    @Override
    public void close() {
      this.closed = true;
    }

    @Override
    public void whenGone(Runnable onGone) {}
  }
}
