package dev.matview.peer.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.CapacityChannel;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.jspecify.annotations.Nullable;

/**
 * Hands an answer's body to a {@link BodyListener} as it arrives, a window of {@link #CHUNK} bytes
 * at a time: the connection is read further only once the listener has taken what came, so that a
 * reader that does not keep up holds the other instance back instead of filling the heap.
 */
final class StreamingResponseConsumer implements AsyncResponseConsumer<Void> {

  /** How many bytes the listener is offered at a time. */
  static final int CHUNK = 8 * 1024;

  private final BodyListener listener;

  private final AtomicBoolean over = new AtomicBoolean();

  private volatile boolean aborted;

  private boolean listenerReady = true;

  private @Nullable CapacityChannel waiting;

  private @Nullable FutureCallback<Void> result;

  StreamingResponseConsumer(BodyListener listener) {
    this.listener = listener;
  }

  @Override
  public void consumeResponse(
      HttpResponse response,
      @Nullable EntityDetails entity,
      HttpContext context,
      FutureCallback<Void> resultCallback) {
    this.result = resultCallback;
    this.listener.head(response.getCode(), (entity != null) ? entity.getContentType() : null);
    if (entity == null) {
      end();
    }
  }

  @Override
  public void informationResponse(HttpResponse response, HttpContext context) {
    // a 1xx answer carries no body
  }

  @Override
  public void updateCapacity(CapacityChannel channel) throws IOException {
    synchronized (this) {
      if (!this.listenerReady) {
        this.waiting = channel;
        return;
      }
    }
    channel.update(CHUNK);
  }

  @Override
  public void consume(ByteBuffer data) throws IOException {
    if (this.aborted) {
      throw new IOException("The exchange was cancelled");
    }
    synchronized (this) {
      this.listenerReady = false;
    }
    this.listener.data(data, this::more);
  }

  /**
   * Ends the exchange from this side: the connection is read again, and the next bytes that arrive
   * fail the exchange, which closes its connection, so that the other instance learns of it.
   */
  void abort() {
    this.aborted = true;
    more();
  }

  /** The listener took what came: the connection may be read further. */
  private void more() {
    CapacityChannel channel;
    synchronized (this) {
      this.listenerReady = true;
      channel = this.waiting;
      this.waiting = null;
    }
    if (channel != null) {
      try {
        channel.update(CHUNK);
      } catch (IOException ex) {
        failed(ex);
      }
    }
  }

  @Override
  public void streamEnd(@Nullable List<? extends Header> trailers) {
    end();
  }

  private void end() {
    if (this.over.compareAndSet(false, true)) {
      this.listener.ended();
      FutureCallback<Void> done = this.result;
      if (done != null) {
        done.completed(null);
      }
    }
  }

  @Override
  public void failed(Exception cause) {
    if (this.over.compareAndSet(false, true)) {
      this.listener.failed(cause);
    }
  }

  @Override
  public void releaseResources() {
    synchronized (this) {
      this.waiting = null;
    }
  }
}
