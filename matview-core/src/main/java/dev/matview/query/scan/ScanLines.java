package dev.matview.query.scan;

import dev.matview.query.answer.ItemLines;
import dev.matview.query.answer.KeyItem;
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
import tools.jackson.databind.module.SimpleModule;

/**
 * Writes scan items as the lines of a streamed scan, in the JSON of a page's items, and the body
 * that carries a partition slice of them from one instance to another: the item lines as they go on
 * to the client, then one line with where the slice ended.
 */
public final class ScanLines {

  /** Items whose JSON the mapper must write as {@link ItemBatchSerializer} does to use it. */
  private static final List<Object> PROBES =
      List.of(
          new KeyItem("k", 1L),
          new WindowItem(
              "k",
              Instant.ofEpochMilli(1_764_000_000_123L),
              Instant.ofEpochSecond(1_764_000_060L),
              List.of(1.5, "v")));

  /**
   * Writes a batch of items in one call, or {@code null} where the mapper writes them otherwise.
   */
  private final @Nullable ObjectWriter batches;

  /** Writes one item after the other, as the mapper does. */
  private final ObjectWriter items;

  /** Lines written with {@code mapper}, the mapper that writes pages. */
  public ScanLines(ObjectMapper mapper) {
    this.items =
        mapper
            .writer()
            .withRootValueSeparator("\n")
            .without(SerializationFeature.FLUSH_AFTER_WRITE_VALUE);
    ObjectMapper batchMapper =
        mapper
            .rebuild()
            .addModule(
                new SimpleModule("matview-scan-lines")
                    .addSerializer(ItemBatchSerializer.Batch.class, new ItemBatchSerializer()))
            .build();
    boolean alike =
        PROBES.stream()
            .allMatch(
                (probe) ->
                    batchMapper
                        .writeValueAsString(new ItemBatchSerializer.Batch(List.of(probe)))
                        .equals(mapper.writeValueAsString(probe) + "\n"));
    this.batches = alike ? batchMapper.writer().withRootValueSeparator("") : null;
  }

  /** Whether items are written a batch at a time, the mapper writing them as pages hold them. */
  boolean writesBatches() {
    return this.batches != null;
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
   * {"last": token or null, "exhausted": boolean, "count": items}} on a line of its own.
   */
  public byte[] peerBody(List<?> items, @Nullable String last, boolean exhausted) {
    Buffer buffer = new Buffer(items.size() + 1);
    write(items, buffer);
    write(List.of(new SliceEnd(last, exhausted, items.size())), buffer);
    return buffer.toByteArray();
  }

  private void write(List<?> items, ByteArrayOutputStream out) {
    ObjectWriter batches = this.batches;
    if (batches != null) {
      batches.writeValue(out, new ItemBatchSerializer.Batch(items));
      return;
    }
    try (JsonGenerator generator = this.items.createGenerator(out);
        SequenceWriter lines = this.items.writeValues(generator)) {
      for (Object item : items) {
        lines.write(item);
      }
      lines.flush();
      if (!items.isEmpty()) {
        generator.writeRaw('\n');
      }
    }
  }

  /** Where a slice sent between instances ended, and how many items it holds. */
  record SliceEnd(@Nullable String last, boolean exhausted, int count) {}

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
