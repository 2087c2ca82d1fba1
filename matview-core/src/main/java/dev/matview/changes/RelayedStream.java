package dev.matview.changes;

import dev.matview.peer.http.BodyListener;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * One stream relayed from the instance that owns its partition: reads the owner's events and
 * heartbeats as they arrive and passes each on as it came, reading on only once the client has
 * taken what was passed. It ends once: with the owner's own last event; with an event that says to
 * reconnect with the last id when the owner ends the stream, cannot be reached, answers otherwise,
 * or sends nothing, not even a heartbeat, within the relay's idle deadline; or when its client goes
 * away. Whatever ends it closes its connection to the owner.
 */
final class RelayedStream implements BodyListener {

  /** The longest event a relay passes on: as long as any answer of another instance may be. */
  private static final int MAX_EVENT_BYTES = 64 * 1024 * 1024;

  private final ChangeSink sink;

  private final Runnable onEnd;

  private final AtomicBoolean ended = new AtomicBoolean();

  private final ByteArrayOutputStream line = new ByteArrayOutputStream();

  private final StringBuilder data = new StringBuilder();

  private volatile @Nullable String lastId;

  private @Nullable String event;

  private @Nullable String id;

  private @Nullable Future<Void> upstream;

  /**
   * A relay into {@code sink} of a stream that went on after {@code lastEventId}; {@code onEnd}
   * runs once it ends.
   */
  RelayedStream(ChangeSink sink, @Nullable String lastEventId, Runnable onEnd) {
    this.sink = sink;
    this.lastId = lastEventId;
    this.onEnd = onEnd;
  }

  /** The exchange with the owner, closed when the relay ends. */
  void upstream(Future<Void> exchange) {
    synchronized (this) {
      this.upstream = exchange;
    }
    if (this.ended.get()) {
      exchange.cancel(true);
    }
  }

  @Override
  public void head(int status, @Nullable String contentType) {
    if (status != 200 || contentType == null || !contentType.startsWith("text/event-stream")) {
      reconnect("the partition's owner answered " + status);
    }
  }

  @Override
  public void data(ByteBuffer bytes, Runnable more) throws IOException {
    try {
      while (bytes.hasRemaining() && !this.ended.get()) {
        byte b = bytes.get();
        if (b == '\n') {
          line(this.line.toString(StandardCharsets.UTF_8));
          this.line.reset();
        } else if (b != '\r') {
          if (this.line.size() + this.data.length() >= MAX_EVENT_BYTES) {
            throw new IOException(
                "An event of the owner's stream is longer than " + MAX_EVENT_BYTES + " bytes");
          }
          this.line.write(b);
        }
      }
    } catch (IOException ex) {
      reconnect("the owner's stream could not be passed on");
      throw ex;
    }
    bytes.position(bytes.limit());
    this.sink.whenReady(more);
  }

  @Override
  public void ended() {
    reconnect("the partition's owner ended the stream");
  }

  @Override
  public void failed(Exception failure) {
    reconnect(
        (failure instanceof SocketTimeoutException)
            ? "the partition's owner sent nothing, not even a heartbeat, for two heartbeats"
            : "the partition's owner could not be reached or stopped streaming");
  }

  /** Ends the relay with an event that says to reconnect with the last id. */
  void reconnect(String why) {
    if (this.ended.get()) {
      return;
    }
    try {
      this.sink.send(ChangeEvent.ending(ChangeEvent.Kind.RECONNECT, why, this.lastId));
    } catch (IOException ex) {
      // the client went away as well: the relay ends all the same
    }
    end();
  }

  /** Ends the relay without a word: its client went away. */
  void end() {
    if (this.ended.compareAndSet(false, true)) {
      Future<Void> exchange;
      synchronized (this) {
        exchange = this.upstream;
      }
      if (exchange != null) {
        exchange.cancel(true);
      }
      this.onEnd.run();
      this.sink.close();
    }
  }

  private void line(String text) throws IOException {
    if (text.isEmpty()) {
      dispatch();
    } else if (text.startsWith(":")) {
      this.sink.heartbeat();
    } else if (text.startsWith("event:")) {
      this.event = text.substring(6).strip();
    } else if (text.startsWith("id:")) {
      this.id = text.substring(3).strip();
    } else if (text.startsWith("data:")) {
      this.data.append(text.substring(5).strip());
    }
  }

  /** Passes on the event whose lines were read. */
  private void dispatch() throws IOException {
    ChangeEvent.Kind kind = (this.event != null) ? kind(this.event) : null;
    if (kind != null) {
      this.sink.send(new ChangeEvent(kind, this.data.toString(), this.id));
      if (this.id != null) {
        this.lastId = this.id;
      }
      if (kind.ends()) {
        end();
      }
    }
    this.event = null;
    this.id = null;
    this.data.setLength(0);
  }

  private static ChangeEvent.@Nullable Kind kind(String label) {
    for (ChangeEvent.Kind kind : ChangeEvent.Kind.values()) {
      if (kind.label().equals(label)) {
        return kind;
      }
    }
    return null;
  }
}
