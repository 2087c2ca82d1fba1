package dev.matview.query.scan;

import dev.matview.peer.PeerPath;
import dev.matview.peer.PeerResponse;
import dev.matview.position.PositionTokenException;
import dev.matview.position.PositionTokens;
import dev.matview.position.ViewPosition;
import dev.matview.query.answer.ItemLines;
import dev.matview.query.answer.KeyItem;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.ScanPosition;
import dev.matview.query.answer.Slice;
import dev.matview.query.answer.WindowItem;
import dev.matview.query.peer.PeerFailures;
import dev.matview.topology.ResolvedView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectReader;

/**
 * Both ends of a partition slice as instances send it to each other: the path that asks for it, the
 * body a replica of the partition answers ({@link SliceBody}) and the slice the instance that
 * coordinates a scan reads back from it.
 */
public final class PeerSlices {

  private final CursorCodec cursors;

  private final ObjectMapper mapper;

  private final @Nullable PositionTokens tokens;

  private final ScanLines lines;

  /** Reads numbers with fractions as written, so that a value passes on as its owner wrote it. */
  private final ObjectReader itemsReader;

  /** Slices with positions in {@code cursors}' tokens, JSON by {@code mapper}. */
  public PeerSlices(CursorCodec cursors, ObjectMapper mapper) {
    this(cursors, mapper, null);
  }

  /** Slices as above whose replicas' positions, read with {@code tokens}, come back with them. */
  public PeerSlices(CursorCodec cursors, ObjectMapper mapper, @Nullable PositionTokens tokens) {
    this.cursors = cursors;
    this.mapper = mapper;
    this.tokens = tokens;
    this.lines = new ScanLines(mapper);
    this.itemsReader = mapper.reader().with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
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
                  epochMilli(item, "start"),
                  epochMilli(item, "end"),
                  item.path("value")));

  /** Keys as the lines of a streamed scan, passed on as they come. */
  public static final Kind<ItemLines> KEY_LINES = new Lines("keys");

  /** Windows as the lines of a streamed scan, passed on as they come. */
  public static final Kind<ItemLines> WINDOW_LINES = new Lines("windows");

  /** A window bound sent as epoch milliseconds; anything else makes the slice unreadable. */
  private static Instant epochMilli(JsonNode item, String bound) {
    JsonNode millis = item.path(bound);
    if (!millis.isIntegralNumber() || !millis.canConvertToLong()) {
      throw new IllegalArgumentException(
          "a window's " + bound + " is not a whole number of epoch milliseconds");
    }
    return Instant.ofEpochMilli(millis.asLong());
  }

  /**
   * The path, within the view, that asks an instance for up to {@code limit} items of {@code kind}
   * in {@code partition} after {@code after}, within {@code bounds}.
   */
  PeerPath path(
      ResolvedView<?, ?, ?> view,
      int partition,
      Kind<?> kind,
      Consumer<PeerPath> bounds,
      @Nullable ScanPosition after,
      int limit) {
    return path(view, partition, kind, kind.form(), bounds, after, limit);
  }

  /**
   * The path, within the view, that asks an instance for every slice of up to {@code limit} lines
   * of {@code kind} in {@code partition} after {@code after}, within {@code bounds}, as {@link
   * SliceFrames}.
   */
  PeerPath streamPath(
      ResolvedView<?, ?, ?> view,
      int partition,
      Kind<ItemLines> kind,
      Consumer<PeerPath> bounds,
      @Nullable ScanPosition after,
      int limit) {
    return path(view, partition, kind, SliceForm.STREAM.parameter(), bounds, after, limit);
  }

  private PeerPath path(
      ResolvedView<?, ?, ?> view,
      int partition,
      Kind<?> kind,
      @Nullable String form,
      Consumer<PeerPath> bounds,
      @Nullable ScanPosition after,
      int limit) {
    PeerPath path =
        PeerPath.of(view.name(), "partitions", Integer.toString(partition), kind.path())
            .param("limit", limit)
            .param("form", form);
    bounds.accept(path);
    return path.param(
        "after", after != null ? this.cursors.encodePosition(view.name(), after) : null);
  }

  /**
   * The slice of {@code kind} in {@code owner}'s answer to a request for one; the owner's problem
   * detail to pass on as it is when it refused; or a refusal when the answer cannot be read.
   */
  <T> Routed<Slice<T>> read(
      ResolvedView<?, ?, ?> view, PartitionOwner owner, Kind<T> kind, PeerResponse response) {
    if (response.status() == 403) {
      PeerFailures.warn(
          owner,
          view.name(),
          "refused this instance's signed request: the two do not share one secret;"
              + " give every instance the same matview.peers.secret");
      return unreadable(
          view,
          owner,
          "refused this instance's request: the instances do not share one secret, so give every"
              + " instance the same matview.peers.secret");
    }
    if (!response.isSuccess()) {
      return new Routed.Relayed<>(response);
    }
    try {
      return new Routed.Local<>(
          kind.read(this, view.name(), response.body()), position(view, response));
    } catch (JacksonException | IllegalArgumentException ex) {
      PeerFailures.warn(owner, view.name(), "sent a slice that cannot be read: " + ex.getMessage());
      return unreadable(view, owner, "sent a slice that cannot be read: " + ex.getMessage());
    }
  }

  /** The slice in a body of items as JSON, each read by {@code reader}. */
  private <T> Slice<T> jsonItems(String view, byte[] bytes, Function<JsonNode, T> reader) {
    JsonNode body = this.itemsReader.readTree(bytes);
    List<T> items = new ArrayList<>();
    for (JsonNode item : body.path("items")) {
      items.add(reader.apply(item));
    }
    JsonNode last = body.path("last");
    return new Slice<>(
        items,
        last.isString() ? this.cursors.decodePosition(view, last.asString()) : null,
        body.path("exhausted").asBoolean());
  }

  /**
   * The slice in a body of item lines followed by the line of its end ({@link ScanLines#peerBody}):
   * the item lines are kept as they came, only the last line is read.
   */
  Slice<ItemLines> lines(String view, byte[] body) {
    int end = body.length - 1;
    if (end < 0 || body[end] != '\n') {
      throw new IllegalArgumentException("the slice does not end with a line of its own");
    }
    int start = end;
    while (start > 0 && body[start - 1] != '\n') {
      start--;
    }
    JsonNode sliceEnd = this.mapper.readTree(Arrays.copyOfRange(body, start, end));
    JsonNode last = sliceEnd.path("last");
    JsonNode count = sliceEnd.path("count");
    if (!count.canConvertToInt() || count.asInt() < 0) {
      throw new IllegalArgumentException("the slice does not say how many items it holds");
    }
    return new Slice<>(
        List.of(new ItemLines(body, start, count.asInt())),
        last.isString() ? this.cursors.decodePosition(view, last.asString()) : null,
        sliceEnd.path("exhausted").asBoolean());
  }

  /** The position the replica's answer carries, or {@code null} when it carries none it signed. */
  private @Nullable ViewPosition position(ResolvedView<?, ?, ?> view, PeerResponse response) {
    String token = response.header(PositionTokens.HEADER);
    PositionTokens known = this.tokens;
    if (token == null || known == null) {
      return null;
    }
    try {
      return known.read(view.name(), token);
    } catch (PositionTokenException ex) {
      return null;
    }
  }

  private static <T> Routed<T> unreadable(
      ResolvedView<?, ?, ?> view, PartitionOwner owner, String what) {
    return new Routed.Refused<>(
        new Refusal(
            Refusal.Reason.UNAVAILABLE,
            view.name(),
            null,
            owner.partition(),
            "The instance that owns partition " + owner.partition() + " " + what,
            Refusal.REBALANCE_RETRY));
  }

  /**
   * What a slice holds: the path segment that asks for it, the form it is asked in and how its body
   * is read back.
   *
   * @param <T> the item type
   */
  public sealed interface Kind<T> permits JsonItems, Lines {

    /** {@code keys} or {@code windows}. */
    String path();

    /** The {@code form} the slice is asked in, or {@code null} for JSON. */
    @Nullable String form();

    /** The slice in {@code body}, with positions of {@code view}. */
    Slice<T> read(PeerSlices slices, String view, byte[] body);
  }

  /**
   * Slices as a JSON object of items, each read by {@code reader}.
   *
   * @param path {@code keys} or {@code windows}
   * @param reader reads one item of the body
   * @param <T> the item type
   */
  private record JsonItems<T>(String path, Function<JsonNode, T> reader) implements Kind<T> {

    @Override
    public @Nullable String form() {
      return null;
    }

    @Override
    public Slice<T> read(PeerSlices slices, String view, byte[] body) {
      return slices.jsonItems(view, body, this.reader);
    }
  }

  /**
   * Slices as the lines of a streamed scan.
   *
   * @param path {@code keys} or {@code windows}
   */
  private record Lines(String path) implements Kind<ItemLines> {

    @Override
    public @Nullable String form() {
      return SliceForm.LINES.parameter();
    }

    @Override
    public Slice<ItemLines> read(PeerSlices slices, String view, byte[] body) {
      return slices.lines(view, body);
    }
  }

  /**
   * A window as instances send it to each other.
   *
   * @param key the key
   * @param start the window's start, in epoch milliseconds
   * @param end the window's end, in epoch milliseconds
   * @param value the window's value
   */
  public record PeerWindow(Object key, long start, long end, Object value) {}

  /**
   * A partition slice as instances send it to each other.
   *
   * @param items the slice's items
   * @param last the position token of the last item, or {@code null}
   * @param exhausted whether the partition has no items after these
   * @param <T> the item type
   */
  public record SliceBody<T>(List<T> items, @Nullable String last, boolean exhausted) {}
}
