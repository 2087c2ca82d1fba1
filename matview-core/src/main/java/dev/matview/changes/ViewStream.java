package dev.matview.changes;

import dev.matview.replica.AppliedOffset;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The stream of every key of a view: one part per partition this instance owns, and one relayed
 * stream per other instance, all written to one sink. It ends as a whole: when the client goes
 * away, or when any part ends (its partition moved, its client read too slowly, an owner stopped),
 * after that part's last event has said why.
 */
final class ViewStream implements ChangeSink {

  private final ChangeSink sink;

  private final Runnable onEnd;

  private final List<Part> parts = new CopyOnWriteArrayList<>();

  private final AtomicBoolean ended = new AtomicBoolean();

  ViewStream(ChangeSink sink, Runnable onEnd) {
    this.sink = sink;
    this.onEnd = onEnd;
    sink.whenGone(this::close);
  }

  /** Adds the part that follows one partition of this instance. */
  void add(ChangeStream stream, AppliedOffset partition) {
    this.parts.add(new Part(stream, partition));
  }

  @Override
  public void send(ChangeEvent event) throws IOException {
    this.sink.send(event);
  }

  @Override
  public void send(List<ChangeEvent> events) throws IOException {
    this.sink.send(events);
  }

  @Override
  public boolean isReady() {
    return this.sink.isReady();
  }

  @Override
  public void whenReady(Runnable ready) {
    this.sink.whenReady(ready);
  }

  @Override
  public void heartbeat() throws IOException {
    this.sink.heartbeat();
  }

  /** Whether the stream has ended. */
  boolean hasEnded() {
    return this.ended.get();
  }

  /**
   * A heartbeat for a stream that follows no partition of this instance (another instance asked for
   * this one's partitions, and it holds none now), which no part's heartbeat reaches: a client that
   * went away is noticed, and the stream ends.
   */
  void beatWithoutParts() {
    if (!this.parts.isEmpty() || this.ended.get()) {
      return;
    }
    try {
      this.sink.heartbeat();
    } catch (IOException ex) {
      close();
    }
  }

  @Override
  public void close() {
    if (this.ended.compareAndSet(false, true)) {
      for (Part part : this.parts) {
        part.partition().changes().stop(part.stream());
        part.stream().end();
      }
      this.onEnd.run();
      this.sink.close();
    }
  }

  @Override
  public void whenGone(Runnable onGone) {
    this.sink.whenGone(onGone);
  }

  private record Part(ChangeStream stream, AppliedOffset partition) {}
}
