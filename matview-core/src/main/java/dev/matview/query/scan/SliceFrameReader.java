package dev.matview.query.scan;

import dev.matview.query.answer.ItemLines;
import dev.matview.query.answer.Slice;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;

/**
 * Cuts the bytes of {@link SliceFrames}, in whatever pieces they arrive, into frames, each a line
 * with its length in bytes and then that many bytes, and reads each frame's slice; the partition's
 * last slice is held until the bytes are known to end right after it.
 */
final class SliceFrameReader {

  /** The most digits of a frame's length. */
  private static final int MAX_LENGTH_DIGITS = 10;

  private final PeerSlices slices;

  private final String view;

  private long length;

  private int digits;

  private byte @Nullable [] body;

  private int filled;

  private @Nullable Slice<ItemLines> last;

  /** Frames of slices of {@code view}, read back by {@code slices}. */
  SliceFrameReader(PeerSlices slices, String view) {
    this.slices = slices;
    this.view = view;
  }

  /**
   * Reads from {@code bytes} up to the end of the next frame: its slice, or {@code null} with every
   * byte of {@code bytes} taken, also when that slice is the partition's last one.
   *
   * @throws IOException when a frame does not start with its length, is longer than a frame may be
   *     or holds no slice, or when bytes follow the partition's last slice
   */
  @Nullable Slice<ItemLines> read(ByteBuffer bytes) throws IOException {
    while (bytes.hasRemaining()) {
      if (this.last != null) {
        throw new IOException("it goes on after the partition's last slice");
      }
      byte[] filling = this.body;
      if (filling == null) {
        filling = readLength(bytes.get());
        if (filling == null) {
          continue;
        }
      }
      int taken = Math.min(bytes.remaining(), filling.length - this.filled);
      bytes.get(filling, this.filled, taken);
      this.filled += taken;
      if (this.filled == filling.length) {
        this.body = null;
        Slice<ItemLines> slice = slice(filling);
        if (!slice.exhausted() && slice.last() != null) {
          return slice;
        }
        this.last = slice;
      }
    }
    return null;
  }

  /** The partition's last slice, once, when the bytes read end right after its frame. */
  @Nullable Slice<ItemLines> takeLast() {
    Slice<ItemLines> slice = (this.digits == 0 && this.body == null) ? this.last : null;
    this.last = null;
    return slice;
  }

  /** Reads one byte of a frame's first line; the frame's empty body once the line has ended. */
  private byte @Nullable [] readLength(byte next) throws IOException {
    if (next == '\n') {
      if (this.digits == 0 || this.length > SliceFrames.MAX_FRAME_BYTES) {
        throw new IOException("a frame's length is missing or over " + SliceFrames.MAX_FRAME_BYTES);
      }
      byte[] frame = new byte[(int) this.length];
      this.body = frame;
      this.filled = 0;
      this.length = 0;
      this.digits = 0;
      return frame;
    }
    if (next < '0' || next > '9' || ++this.digits > MAX_LENGTH_DIGITS) {
      throw new IOException("a frame does not start with its length");
    }
    this.length = this.length * 10 + (next - '0');
    return null;
  }

  private Slice<ItemLines> slice(byte[] frame) throws IOException {
    try {
      return this.slices.lines(this.view, frame);
    } catch (JacksonException | IllegalArgumentException ex) {
      throw new IOException("a slice cannot be read: " + ex.getMessage(), ex);
    }
  }
}
