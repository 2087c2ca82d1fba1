package dev.matview.benchmarks.changes;

import dev.matview.processes.http.ServerSentEvent;
import dev.matview.processes.http.ServerSentEventLines;
import java.util.concurrent.Flow;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Reads the lines of one {@code text/event-stream} body into events: a blank line ends an event,
 * comments (heartbeats) are skipped. It keeps its subscription so that the stream can be closed.
 */
final class SseLineSubscriber implements Flow.Subscriber<String> {

  private final Consumer<SseEvent> events;

  private volatile Flow.@Nullable Subscription subscription;

  private volatile boolean cancelled;

  private final ServerSentEventLines lines = new ServerSentEventLines();

  SseLineSubscriber(Consumer<SseEvent> events) {
    this.events = events;
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    this.subscription = subscription;
    if (this.cancelled) {
      subscription.cancel();
      return;
    }
    subscription.request(Long.MAX_VALUE);
  }

  @Override
  public void onNext(String line) {
    ServerSentEvent event = this.lines.line(line);
    if (event != null) {
      this.events.accept(new SseEvent(event.name(), event.id(), event.data(), System.nanoTime()));
    }
  }

  @Override
  public void onError(Throwable failure) {
    this.cancelled = true;
  }

  @Override
  public void onComplete() {
    this.cancelled = true;
  }

  /** Stops reading: the client closes the stream's connection. */
  void cancel() {
    this.cancelled = true;
    Flow.Subscription current = this.subscription;
    if (current != null) {
      current.cancel();
    }
  }
}
