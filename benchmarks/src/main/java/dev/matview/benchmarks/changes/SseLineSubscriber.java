package dev.matview.benchmarks.changes;

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

  private String name = "message";

  private @Nullable String id;

  private @Nullable StringBuilder data;

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
    if (line.isEmpty()) {
      dispatch();
      return;
    }
    if (line.startsWith(":")) {
      return;
    }
    int colon = line.indexOf(':');
    String field = (colon < 0) ? line : line.substring(0, colon);
    String value = (colon < 0) ? "" : line.substring(colon + 1).replaceFirst("^ ", "");
    switch (field) {
      case "event" -> this.name = value;
      case "id" -> this.id = value;
      case "data" -> {
        StringBuilder lines = this.data;
        this.data = (lines == null) ? new StringBuilder(value) : lines.append('\n').append(value);
      }
      default -> {}
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

  private void dispatch() {
    StringBuilder lines = this.data;
    if (lines != null) {
      this.events.accept(new SseEvent(this.name, this.id, lines.toString(), System.nanoTime()));
    }
    this.name = "message";
    this.id = null;
    this.data = null;
  }
}
