package dev.matview.query.scan;

import dev.matview.peer.http.PeerHttpStream;
import dev.matview.query.answer.ItemLines;
import dev.matview.query.answer.Slice;
import java.io.IOException;
import java.io.InputStream;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;

/**
 * The reading end of {@link SliceFrames}: another instance's slices of one partition, read frame by
 * frame as they arrive, one slice held at a time.
 */
final class PeerSliceStream implements AutoCloseable {

  private static final Log logger = LogFactory.getLog(PeerSliceStream.class);

  /** The most digits of a frame's length. */
  private static final int MAX_LENGTH_DIGITS = 10;

  private final PeerHttpStream stream;

  private final PeerSlices slices;

  private final String view;

  private boolean ended;

  /** Slices of {@code view} in {@code stream}, read back by {@code slices}. */
  PeerSliceStream(PeerHttpStream stream, PeerSlices slices, String view) {
    this.stream = stream;
    this.slices = slices;
    this.view = view;
  }

  /**
   * The next slice; {@code null} after the one that exhausted the partition, and when the stream
   * ended before it or cannot be read.
   */
  @Nullable Slice<ItemLines> next() {
    if (this.ended) {
      return null;
    }
    try {
      InputStream in = this.stream.body();
      int length = length(in);
      byte[] body = (length >= 0) ? in.readNBytes(length) : new byte[0];
      if (length < 0 || body.length < length) {
        return stop("it ended before the partition's last slice");
      }
      Slice<ItemLines> slice = this.slices.lines(this.view, body);
      if (slice.exhausted() || slice.last() == null) {
        this.ended = true;
        if (in.read() != -1) {
          return stop("it goes on after the partition's last slice");
        }
      }
      return slice;
    } catch (IOException | JacksonException | IllegalArgumentException ex) {
      return stop(ex.getMessage());
    }
  }

  /** Closes the stream, and its connection unless it was read to its end. */
  @Override
  public void close() {
    this.ended = true;
    this.stream.close();
  }

  private @Nullable Slice<ItemLines> stop(@Nullable String why) {
    logger.debug("A stream of slices of view '" + this.view + "' stopped: " + why);
    close();
    return null;
  }

  /** The length on the next frame's first line, or -1 at the stream's end. */
  private static int length(InputStream in) throws IOException {
    long length = 0;
    int digits = 0;
    int next;
    while ((next = in.read()) != '\n') {
      if (next < 0 && digits == 0) {
        return -1;
      }
      if (next < '0' || next > '9' || ++digits > MAX_LENGTH_DIGITS) {
        throw new IOException("a frame does not start with its length");
      }
      length = length * 10 + (next - '0');
    }
    if (digits == 0 || length > SliceFrames.MAX_FRAME_BYTES) {
      throw new IOException("a frame's length is missing or over " + SliceFrames.MAX_FRAME_BYTES);
    }
    return (int) length;
  }
}
