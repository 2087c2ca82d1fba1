package dev.matview.processes.http;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Reads the events of a {@code text/event-stream} body one at a time, each within a bound, while
 * the stream stays open; comments (heartbeats) are read past. Closing it closes the body.
 */
public final class ServerSentEventReader implements AutoCloseable {

  private final BodyLines lines;

  private final ServerSentEventLines assembled = new ServerSentEventLines();

  /** Reads the events of {@code lines}, a body as it arrives. */
  public ServerSentEventReader(BodyLines lines) {
    this.lines = lines;
  }

  /** The answer's HTTP status. */
  public int status() {
    return this.lines.status();
  }

  /**
   * The next event, waiting for it at most {@code bound}.
   *
   * @throws IllegalStateException when none came within the bound, or the stream ended first
   */
  public ServerSentEvent next(Duration bound) throws InterruptedException {
    ServerSentEvent event = nextOrEnd(bound);
    if (event == null) {
      throw new IllegalStateException("The stream ended before its next event");
    }
    return event;
  }

  /**
   * The next event, waiting for it at most {@code bound}, or {@code null} once the server has ended
   * the stream; an event cut off before its blank line is not one.
   *
   * @throws IllegalStateException when none came within the bound
   */
  public @Nullable ServerSentEvent nextOrEnd(Duration bound) throws InterruptedException {
    long deadline = System.nanoTime() + bound.toNanos();
    for (String line = this.lines.next(bound); line != null; ) {
      ServerSentEvent event = this.assembled.line(line);
      if (event != null) {
        return event;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new IllegalStateException("No event within " + bound);
      }
      line = this.lines.next(Duration.ofNanos(left));
    }
    return null;
  }

  @Override
  public void close() {
    this.lines.close();
  }
}
