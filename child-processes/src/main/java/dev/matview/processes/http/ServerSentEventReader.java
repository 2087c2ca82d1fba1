package dev.matview.processes.http;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Reads the events of a {@code text/event-stream} body on a thread of its own, so that a test can
 * take them one at a time while the stream stays open; closing it closes the body.
 */
public final class ServerSentEventReader implements AutoCloseable {

  private final Stream<String> lines;

  private final LinkedBlockingQueue<ServerSentEvent> events = new LinkedBlockingQueue<>();

  private final CompletableFuture<Void> reading;

  /** Starts reading {@code lines}, the body's lines as an HTTP client hands them out. */
  public ServerSentEventReader(Stream<String> lines) {
    this.lines = lines;
    ServerSentEventLines assembled = new ServerSentEventLines();
    this.reading =
        CompletableFuture.runAsync(
            () ->
                lines.forEach(
                    (line) -> {
                      ServerSentEvent event = assembled.line(line);
                      if (event != null) {
                        this.events.add(event);
                      }
                    }));
  }

  /**
   * The next event, waiting for it at most {@code bound}.
   *
   * @throws IllegalStateException when none came within the bound
   */
  public ServerSentEvent next(Duration bound) throws InterruptedException {
    ServerSentEvent event = this.events.poll(bound.toMillis(), TimeUnit.MILLISECONDS);
    if (event == null) {
      throw new IllegalStateException("no event within " + bound);
    }
    return event;
  }

  @Override
  public void close() {
    this.lines.close();
    this.reading.cancel(true);
  }
}
