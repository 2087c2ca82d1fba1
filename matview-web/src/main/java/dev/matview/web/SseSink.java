package dev.matview.web;

import dev.matview.changes.ChangeEvent;
import dev.matview.changes.ChangeSink;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A change stream's events as Server-Sent Events on the Servlet API's non-blocking output: while
 * the client has not taken what was written the sink is not ready, and it refuses more than {@code
 * maxPendingEvents}, so a writer that ignores readiness cannot grow the heap either.
 */
final class SseSink implements ChangeSink, WriteListener {

  private final int maxPendingEvents;

  private final ArrayDeque<Pending> pending = new ArrayDeque<>();

  private final List<Runnable> onReady = new ArrayList<>();

  private final List<Runnable> onGone = new ArrayList<>();

  private @Nullable AsyncResponse async;

  private @Nullable ServletOutputStream out;

  private int pendingEvents;

  private boolean unflushed;

  private boolean closing;

  private boolean gone;

  /** A sink that holds at most {@code maxPendingEvents} events its client has not taken. */
  SseSink(int maxPendingEvents) {
    this.maxPendingEvents = maxPendingEvents;
  }

  /** Starts the event stream on {@code request}'s async context and writes what waits. */
  void attach(HttpServletRequest request, HttpServletResponse response) {
    try {
      response.setContentType("text/event-stream");
      response.setCharacterEncoding(StandardCharsets.UTF_8.name());
      response.setHeader("Cache-Control", "no-cache");
      AsyncResponse started = AsyncResponse.start(request, response);
      started.whenOver(this::gone, () -> failed(started));
      ServletOutputStream stream = response.getOutputStream();
      synchronized (this) {
        this.async = started;
        this.out = stream;
      }
      stream.setWriteListener(this);
    } catch (IOException | RuntimeException ex) {
      gone();
    }
  }

  @Override
  public void send(ChangeEvent event) throws IOException {
    send(List.of(event));
  }

  @Override
  public void send(List<ChangeEvent> events) throws IOException {
    enqueue(new Pending(EventStreamText.of(events), events.size()));
  }

  /** Writes a comment, unless the client has yet to take what was written before. */
  @Override
  public void heartbeat() throws IOException {
    synchronized (this) {
      if (!this.pending.isEmpty() && !this.gone) {
        return;
      }
    }
    enqueue(new Pending(EventStreamText.HEARTBEAT, 0));
  }

  private void enqueue(Pending bytes) throws IOException {
    synchronized (this) {
      if (this.gone || this.closing) {
        throw new IOException("The client of this change stream went away");
      }
      if (this.pendingEvents + bytes.events() > this.maxPendingEvents) {
        throw new IOException("The client of this change stream reads too slowly");
      }
      this.pending.add(bytes);
      this.pendingEvents += bytes.events();
    }
    writePending();
  }

  @Override
  public void onWritePossible() {
    writePending();
  }

  /** Writes what waits while the client takes it, then runs what waited for that. */
  private void writePending() {
    List<Runnable> ready;
    AsyncResponse completing = null;
    synchronized (this) {
      ServletOutputStream stream = this.out;
      if (stream == null || this.gone) {
        return;
      }
      try {
        while (!this.pending.isEmpty() && stream.isReady()) {
          Pending next = this.pending.poll();
          this.pendingEvents -= next.events();
          stream.write(next.bytes());
          this.unflushed = true;
        }
        if (this.unflushed && this.pending.isEmpty() && stream.isReady()) {
          this.unflushed = false;
          stream.flush();
        }
      } catch (IOException | RuntimeException ex) {
        this.gone = true;
      }
      if (this.gone || !this.pending.isEmpty() || !stream.isReady()) {
        ready = List.of();
      } else {
        ready = List.copyOf(this.onReady);
        this.onReady.clear();
        if (this.closing) {
          completing = this.async;
          this.async = null;
        }
      }
    }
    if (isGone()) {
      gone();
      return;
    }
    ready.forEach(Runnable::run);
    if (completing != null) {
      completing.complete();
    }
  }

  @Override
  public synchronized boolean isReady() {
    ServletOutputStream stream = this.out;
    return !this.gone && this.pending.isEmpty() && (stream == null || stream.isReady());
  }

  @Override
  public void whenReady(Runnable ready) {
    synchronized (this) {
      if (!isReady()) {
        this.onReady.add(ready);
        return;
      }
    }
    ready.run();
  }

  /** Ends the response once the client has taken what waits, or at once when nothing does. */
  @Override
  public void close() {
    synchronized (this) {
      if (this.closing) {
        return;
      }
      this.closing = true;
    }
    writePending();
  }

  @Override
  public void whenGone(Runnable gone) {
    synchronized (this) {
      if (!this.gone) {
        this.onGone.add(gone);
        return;
      }
    }
    gone.run();
  }

  @Override
  public void onError(Throwable failure) {
    gone();
  }

  /**
   * The container says the response failed: it ends here, in the container's callback, since one
   * left open is dispatched to the error page, which cannot write an event stream.
   */
  private void failed(AsyncResponse response) {
    gone();
    response.complete();
  }

  private synchronized boolean isGone() {
    return this.gone;
  }

  /** The client went away or the response ended: whoever waits for that hears it once. */
  private void gone() {
    List<Runnable> listeners;
    AsyncResponse ending;
    synchronized (this) {
      this.gone = true;
      this.pending.clear();
      this.pendingEvents = 0;
      this.onReady.clear();
      listeners = List.copyOf(this.onGone);
      this.onGone.clear();
      ending = this.async;
      this.async = null;
    }
    listeners.forEach(Runnable::run);
    if (ending != null) {
      ending.complete();
    }
  }

  /** Bytes to write and how many events they hold. */
  private record Pending(byte[] bytes, int events) {}
}
