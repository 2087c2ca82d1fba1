package dev.matview.query.scan;

import dev.matview.query.answer.Routed;
import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.Slice;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

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

  private final Function<ScanPosition, Routed<Slice<T>>> next;

  private final Function<Slice<T>, byte[]> body;

  /** The slice to frame first, until it is framed. */
  private @Nullable Slice<T> first;

  /** Where the slice after the last one framed starts, or {@code null} when none is to follow. */
  private @Nullable ScanPosition after;

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
   * The next frame, its slice read here; {@code null} once the partition's last slice was framed,
   * or when the slice after the last one framed is not read here.
   */
  public @Nullable Frame next() {
    Slice<T> slice = this.first;
    this.first = null;
    if (slice == null) {
      ScanPosition from = this.after;
      if (from == null || !(this.next.apply(from) instanceof Routed.Local<Slice<T>> read)) {
        this.after = null;
        return null;
      }
      slice = read.answer();
    }
    ScanPosition last = slice.last();
    this.after = (slice.exhausted() || last == null) ? null : last;
    byte[] frame = this.body.apply(slice);
    return new Frame((frame.length + "\n").getBytes(StandardCharsets.US_ASCII), frame);
  }

  /** One slice's frame: the line with its body's length, then the body. */
  public record Frame(byte[] length, byte[] body) {}
}
