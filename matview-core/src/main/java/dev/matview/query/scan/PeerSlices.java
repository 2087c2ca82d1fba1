package dev.matview.query.scan;

import dev.matview.peer.PeerPath;
import dev.matview.peer.PeerResponse;
import dev.matview.position.PositionTokens;
import dev.matview.query.answer.ItemLines;
import dev.matview.query.answer.KeyItem;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.Slice;
import dev.matview.query.answer.WindowItem;
import dev.matview.topology.ResolvedView;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Both ends of a partition slice as instances send it to each other: the path that asks for it, the
 * body a replica of the partition answers ({@link SliceBody}) and the slice the instance that
 * coordinates a scan reads back from it ({@link SliceReader}).
 */
public final class PeerSlices {

  private final CursorCodec cursors;

  private final ScanLines lines;

  private final SliceReader reader;

  /** Slices whose positions come back read with {@code tokens}, when given. */
  public PeerSlices(CursorCodec cursors, ObjectMapper mapper, @Nullable PositionTokens tokens) {
    this.cursors = cursors;
    this.lines = new ScanLines(mapper);
    this.reader = new SliceReader(cursors, mapper, tokens);
  }

  /** The body that answers another instance's request for {@code slice} of keys of a view. */
  public SliceBody<KeyItem> keysBody(String viewName, Slice<KeyItem> slice) {
    return body(viewName, slice.items(), slice);
  }

  /**
   * The body that answers another instance's request for {@code slice} of windows of a view: bounds
   * as epoch milliseconds, which the other instance reads without parsing text.
   */
  public SliceBody<PeerWindow> windowsBody(String viewName, Slice<WindowItem> slice) {
    List<PeerWindow> windows = new ArrayList<>(slice.items().size());
    for (WindowItem item : slice.items()) {
      windows.add(
          new PeerWindow(
              item.key(), item.start().toEpochMilli(), item.end().toEpochMilli(), item.value()));
    }
    return body(viewName, windows, slice);
  }

  /**
   * The body that answers another instance's request for {@code slice} as lines: its items as the
   * streamed scan's client gets them, then where the slice ended ({@link ScanLines#peerBody}).
   */
  public byte[] linesBody(String viewName, Slice<?> slice) {
    return this.lines.peerBody(slice.items(), lastToken(viewName, slice), slice.exhausted());
  }

  private <T> SliceBody<T> body(String viewName, List<T> items, Slice<?> slice) {
    return new SliceBody<>(items, lastToken(viewName, slice), slice.exhausted());
  }

  private @Nullable String lastToken(String viewName, Slice<?> slice) {
    ScanPosition last = slice.last();
    return last != null ? this.cursors.encodePosition(viewName, last) : null;
  }

  /** Keys, read back as their JSON. */
  public static final Kind<KeyItem> KEYS =
      new JsonItems<>("keys", (item) -> new KeyItem(item.path("key"), item.path("value")));

  /** Windows, read back with their bounds, sent as epoch milliseconds ({@link PeerWindow}). */
  public static final Kind<WindowItem> WINDOWS =
      new JsonItems<>(
          "windows",
          (item) ->
              new WindowItem(
                  item.path("key"),
                  SliceReader.epochMilli(item, "start"),
                  SliceReader.epochMilli(item, "end"),
                  item.path("value")));

  /** Keys as the lines of a streamed scan, passed on as they come. */
  public static final Kind<ItemLines> KEY_LINES = new Lines("keys");

  /** Windows as the lines of a streamed scan, passed on as they come. */
  public static final Kind<ItemLines> WINDOW_LINES = new Lines("windows");

  /** The path that asks an instance for a slice of {@code scan} in {@code partition}. */
  PeerPath path(ScanRead<?> scan, int partition, @Nullable ScanPosition after, int limit) {
    return path(scan, partition, scan.kind().form(), after, limit);
  }

  /** The path that asks an instance for every slice of {@code scan} in {@code partition}. */
  PeerPath streamPath(
      ScanRead<ItemLines> scan, int partition, @Nullable ScanPosition after, int limit) {
    return path(scan, partition, SliceForm.STREAM.parameter(), after, limit);
  }

  private PeerPath path(
      ScanRead<?> scan,
      int partition,
      @Nullable String form,
      @Nullable ScanPosition after,
      int limit) {
    String view = scan.view().name();
    return PeerPath.of(view, "partitions", Integer.toString(partition), scan.kind().path())
        .param("limit", limit)
        .param("form", form)
        .param("from", scan.from())
        .param("to", scan.to())
        .param("after", after != null ? this.cursors.encodePosition(view, after) : null);
  }

  /** The slice of {@code kind} in {@code owner}'s answer, as {@link SliceReader#read} reads it. */
  <T> Routed<Slice<T>> read(
      ResolvedView<?, ?, ?> view, PartitionOwner owner, Kind<T> kind, PeerResponse response) {
    return this.reader.read(view, owner, kind, response);
  }

  /** The slice in a body of item lines, as {@link SliceReader#lines} reads it. */
  Slice<ItemLines> lines(String view, byte[] body) {
    return this.reader.lines(view, body);
  }

  /** What a slice holds: the path that asks for it, its form and how its body is read. */
  public sealed interface Kind<T> permits JsonItems, Lines {

    /** {@code keys} or {@code windows}. */
    String path();

    /** The {@code form} the slice is asked in, or {@code null} for JSON. */
    @Nullable String form();

    /** The slice in {@code body}, with positions of {@code view}. */
    Slice<T> read(SliceReader reader, String view, byte[] body);
  }

  /** Slices as a JSON object of items, each read by {@code reader}. */
  private record JsonItems<T>(String path, Function<JsonNode, T> reader) implements Kind<T> {

    @Override
    public @Nullable String form() {
      return null;
    }

    @Override
    public Slice<T> read(SliceReader slices, String view, byte[] body) {
      return slices.jsonItems(view, body, this.reader);
    }
  }

  /** Slices as the lines of a streamed scan. */
  private record Lines(String path) implements Kind<ItemLines> {

    @Override
    public @Nullable String form() {
      return SliceForm.LINES.parameter();
    }

    @Override
    public Slice<ItemLines> read(SliceReader slices, String view, byte[] body) {
      return slices.lines(view, body);
    }
  }

  /** A window as instances send it to each other, its bounds in epoch milliseconds. */
  public record PeerWindow(Object key, long start, long end, Object value) {}

  /** A partition slice as instances send it to each other, its last position a token. */
  public record SliceBody<T>(List<T> items, @Nullable String last, boolean exhausted) {}
}
