package dev.matview.query.scan;

import dev.matview.query.answer.Routed;
import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.Slice;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/**
 * A partition's slices as one instance streams them to another that coordinates a streamed scan:
 * one frame a slice, each a line with the length in bytes of the slice's body ({@link
 * ScanLines#peerBody}: its item lines, then the line of its end) followed by that body, until the
 * slice that exhausts the partition. The stream stops early, without that slice, when a slice can
 * no longer be read here; the other instance then asks for the rest slice by slice.
 *
 * @param <T> the item type
 */
public final class SliceFrames<T> {

  /** The content type of a stream of slices. */
  public static final String TYPE = "application/vnd.matview.slices";

  /** The most bytes one frame's body may take. */
  static final int MAX_FRAME_BYTES = 64 * 1024 * 1024;

  private final Slice<T> first;

  private final Function<ScanPosition, Routed<Slice<T>>> next;

  private final Function<Slice<T>, byte[]> body;

  /**
   * Frames of {@code first}, then of each slice {@code next} reads after the last one's end, each
   * slice's body written by {@code body}.
   */
  public SliceFrames(
      Slice<T> first,
      Function<ScanPosition, Routed<Slice<T>>> next,
      Function<Slice<T>, byte[]> body) {
    this.first = first;
    this.next = next;
    this.body = body;
  }

  /**
   * Writes the frames to {@code out} until the partition's last slice, or until a slice is not read
   * here.
   */
  public void writeTo(OutputStream out) throws IOException {
    Slice<T> slice = this.first;
    while (true) {
      byte[] frame = this.body.apply(slice);
      out.write(Integer.toString(frame.length).getBytes(StandardCharsets.US_ASCII));
      out.write('\n');
      out.write(frame);
      ScanPosition last = slice.last();
      if (slice.exhausted() || last == null) {
        break;
      }
      if (!(this.next.apply(last) instanceof Routed.Local<Slice<T>> read)) {
        break;
      }
      slice = read.answer();
    }
    out.flush();
  }
}
