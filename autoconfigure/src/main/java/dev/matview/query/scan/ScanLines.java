package dev.matview.query.scan;

import dev.matview.query.answer.ItemLines;
import dev.matview.query.answer.Slice;
import dev.matview.query.answer.WindowItem;
import java.io.ByteArrayOutputStream;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.SequenceWriter;
import tools.jackson.databind.SerializationFeature;

/**
 * Writes scan items as the lines of a streamed scan, in the JSON of a page's items, and the body
 * that carries a partition slice of them from one instance to another: the item lines as they go on
 * to the client, then one line with where the slice ended.
 */
public final class ScanLines {

  /** An instant with a fraction, and one without, that the mapper must write as ISO does. */
  private static final List<Instant> PROBES =
      List.of(Instant.ofEpochMilli(1_764_000_000_123L), Instant.ofEpochSecond(1_764_000_000L));

  private final ObjectWriter writer;

  /** Whether the mapper writes instants as ISO-8601 text, which these lines then write faster. */
  private final boolean isoInstants;

  /** Lines written with {@code mapper}, the mapper that writes pages. */
  public ScanLines(ObjectMapper mapper) {
    this.writer =
        mapper
            .writer()
            .withRootValueSeparator("\n")
            .without(SerializationFeature.FLUSH_AFTER_WRITE_VALUE);
    this.isoInstants =
        PROBES.stream()
            .allMatch(
                (probe) ->
                    mapper
                        .writeValueAsString(probe)
                        .equals("\"" + IsoInstants.format(probe) + "\""));
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
    try (JsonGenerator generator = this.writer.createGenerator(out);
        SequenceWriter lines = this.writer.writeValues(generator)) {
      for (Object item : items) {
        lines.write(
            (this.isoInstants && item instanceof WindowItem window) ? WindowLine.of(window) : item);
      }
      lines.flush();
      if (!items.isEmpty()) {
        generator.writeRaw('\n');
      }
    }
  }

  /**
   * A window as a line holds it when the mapper writes instants as ISO-8601 text: its bounds
   * formatted here, as the mapper would.
   *
   * @param key the key
   * @param start the window's start, as ISO-8601 text
   * @param end the window's end, as ISO-8601 text
   * @param value the window's value
   */
  record WindowLine(Object key, String start, String end, Object value) {

    static WindowLine of(WindowItem window) {
      return new WindowLine(
          window.key(),
          IsoInstants.format(window.start()),
          IsoInstants.format(window.end()),
          window.value());
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
