package dev.matview.query.scan;

import dev.matview.peer.http.BodyListener;
import dev.matview.query.answer.ItemLines;
import dev.matview.query.answer.Slice;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The reading end of {@link SliceFrames}: another instance's slices of one partition, read as they
 * arrive on the peers' client's I/O thread ({@link SliceFrameReader}). The connection is read only
 * while the scan waits for a slice, so that the other instance is held back while the scan passes
 * on what it got, and only the slices of what was read at once are held. The client reads on
 * regardless while a chunked body's bytes are at hand; a stream of which more than {@link
 * #MAX_READ_AHEAD} bytes came while no slice was waited for is therefore stopped, and the scan
 * reads the rest slice by slice, as it does after a stream that broke off or that the other
 * instance did not answer as one.
 */
final class PeerSliceStream implements BodyListener, AutoCloseable {

  private static final Log logger = LogFactory.getLog(PeerSliceStream.class);

  /**
   * The most bytes that may come while no slice is waited for: many times what the client reads
   * beyond what the reader of a body delimited by its connection's end asked for.
   */
  static final int MAX_READ_AHEAD = 1024 * 1024;

  private final String view;

  private final SliceFrameReader frames;

  private final ArrayDeque<Slice<ItemLines>> arrived = new ArrayDeque<>();

  private @Nullable CompletableFuture<@Nullable Slice<ItemLines>> waiting;

  /** Reads on from the connection, held while no slice is waited for. */
  private @Nullable Runnable more;

  /** The bytes that came since a slice was last waited for. */
  private long readAhead;

  private @Nullable Future<Void> exchange;

  /** Why the other instance's answer is not a stream of slices, when it is not. */
  private @Nullable String refused;

  /** Nothing more arrives: the stream ended, failed or was closed. */
  private boolean over;

  private boolean closed;

  /** The partition's last slice, once the stream ended right after it, until it is taken. */
  private @Nullable Slice<ItemLines> last;

  /** Slices of {@code view} read back by {@code slices}. */
  PeerSliceStream(PeerSlices slices, String view) {
    this.view = view;
    this.frames = new SliceFrameReader(slices, view);
  }

  /** The exchange that reads the stream, cancelled when it is closed. */
  void exchange(Future<Void> exchange) {
    boolean cancel;
    synchronized (this) {
      this.exchange = exchange;
      cancel = this.closed;
    }
    if (cancel) {
      exchange.cancel(true);
    }
  }

  /**
   * The next slice, once its frame has arrived whole; {@code null} after the partition's last
   * slice, and when the stream ended before it or could not be read. Asked again only once the
   * slice before is there: the connection is read on while a slice is waited for.
   */
  CompletableFuture<@Nullable Slice<ItemLines>> next() {
    CompletableFuture<@Nullable Slice<ItemLines>> asked;
    Runnable readOn;
    synchronized (this) {
      Slice<ItemLines> slice = this.arrived.poll();
      if (slice == null && this.over) {
        slice = this.last;
        this.last = null;
      }
      if (slice != null || this.over) {
        return CompletableFuture.completedFuture(slice);
      }
      asked = new CompletableFuture<>();
      this.waiting = asked;
      this.readAhead = 0;
      readOn = this.more;
      this.more = null;
    }
    if (readOn != null) {
      readOn.run();
    }
    return asked;
  }

  @Override
  public synchronized void head(int status, @Nullable String contentType) {
    if (status != 200 || contentType == null || !contentType.startsWith(SliceFrames.TYPE)) {
      this.refused = "the other instance answered " + status + " " + contentType;
    }
  }

  @Override
  public void data(ByteBuffer bytes, Runnable more) throws IOException {
    CompletableFuture<@Nullable Slice<ItemLines>> asked = null;
    Slice<ItemLines> slice = null;
    boolean readOn;
    synchronized (this) {
      readable(bytes.remaining());
      while (bytes.hasRemaining()) {
        Slice<ItemLines> read = this.frames.read(bytes);
        if (read != null) {
          this.arrived.add(read);
        }
      }
      if (this.waiting != null && !this.arrived.isEmpty()) {
        asked = this.waiting;
        this.waiting = null;
        slice = this.arrived.poll();
      }
      readOn = this.waiting != null;
      if (!readOn) {
        this.more = more;
      }
    }
    if (asked != null) {
      asked.complete(slice);
    }
    if (readOn) {
      more.run();
    }
  }

  @Override
  public void ended() {
    end(null);
  }

  @Override
  public void failed(Exception failure) {
    end(failure);
  }

  /** Stops reading the stream, and closes its connection unless it was read to its end. */
  @Override
  public void close() {
    Future<Void> open;
    synchronized (this) {
      this.closed = true;
      this.arrived.clear();
      this.more = null;
      open = this.exchange;
    }
    end(null);
    if (open != null) {
      open.cancel(true);
    }
  }

  /** Checks that {@code count} more bytes may be read, or ends the exchange. */
  private void readable(int count) throws IOException {
    if (this.waiting == null) {
      this.readAhead += count;
    }
    if (this.closed) {
      throw new IOException("the stream was closed");
    }
    if (this.refused != null) {
      throw new IOException(this.refused);
    }
    if (this.readAhead > MAX_READ_AHEAD) {
      throw new IOException(
          "more than " + MAX_READ_AHEAD + " bytes came while no slice was waited for");
    }
  }

  /** The stream ends: a scan that waits gets what is left, or {@code null}. */
  private void end(@Nullable Exception failure) {
    CompletableFuture<@Nullable Slice<ItemLines>> asked;
    Slice<ItemLines> partitionEnd;
    String stopped = null;
    synchronized (this) {
      if (this.over) {
        return;
      }
      this.over = true;
      partitionEnd = (failure == null && !this.closed) ? this.frames.takeLast() : null;
      if (partitionEnd == null && !this.closed) {
        stopped = (failure != null) ? failure.toString() : this.refused;
        if (stopped == null) {
          stopped = "it ended before the partition's last slice";
        }
      }
      asked = this.waiting;
      this.waiting = null;
      if (asked == null) {
        this.last = partitionEnd;
      }
    }
    if (stopped != null) {
      logger.debug("A stream of slices of view '" + this.view + "' stopped: " + stopped);
    }
    if (asked != null) {
      asked.complete(partitionEnd);
    }
  }
}
