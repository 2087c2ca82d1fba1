package dev.matview.query.scan;

import dev.matview.query.answer.ItemLines;
import dev.matview.query.answer.Slice;
import java.io.ByteArrayOutputStream;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectWriter;

/**
 * Writes scan items as the lines of a streamed scan, in the JSON of a page's items, and the body
 * that carries a partition slice of them from one instance to another: the item lines as they go on
 * to the client, then one line with where the slice ended.
 */
public final class ScanLines {

  private final ObjectWriter writer;

  /** Lines written with {@code mapper}, the mapper that writes pages. */
  public ScanLines(ObjectMapper mapper) {
    this.writer = mapper.writer().withRootValueSeparator("\n");
  }

  /** The slice with its items as lines. */
  public Slice<ItemLines> of(Slice<?> slice) {
    Buffer buffer = new Buffer(slice.items().size());
    write(slice.items(), buffer);
    return new Slice<>(
        List.of(new ItemLines(buffer.bytes(), buffer.size(), slice.items().size())),
        slice.last(),
        slice.exhausted());
  }

  /**
   * The body of a slice as one instance sends it to another: {@code items} as lines, then {@code
   * {"last": token or null, "exhausted": boolean}} on a line of its own.
   */
  public byte[] peerBody(List<?> items, @Nullable String last, boolean exhausted) {
    Buffer buffer = new Buffer(items.size() + 1);
    write(items, buffer);
    write(List.of(new SliceEnd(last, exhausted)), buffer);
    return buffer.toByteArray();
  }

  private void write(List<?> items, ByteArrayOutputStream out) {
    try (JsonGenerator generator = this.writer.createGenerator(out)) {
      for (Object item : items) {
        this.writer.writeValue(generator, item);
      }
      if (!items.isEmpty()) {
        generator.writeRaw('\n');
      }
    }
  }

  /**
   * Where a slice sent between instances ended.
   *
   * @param last the position token of its last item, or {@code null} when it has none
   * @param exhausted whether the partition has no items after it
   */
  record SliceEnd(@Nullable String last, boolean exhausted) {}

  /** A byte buffer whose bytes are read in place, sized for about 64 bytes an item. */
  private static final class Buffer extends ByteArrayOutputStream {

    Buffer(int items) {
      super(Math.max(256, Math.min(items, 4096) * 64));
    }

    byte[] bytes() {
      return this.buf;
    }
  }
}
