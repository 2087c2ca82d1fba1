package dev.matview.query.scan;

import dev.matview.peer.PeerPath;
import dev.matview.peer.PeerResponse;
import dev.matview.position.PositionTokenException;
import dev.matview.position.PositionTokens;
import dev.matview.position.ViewPosition;
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
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Both ends of a partition slice as instances send it to each other: the path that asks for it, the
 * body a replica of the partition answers ({@link SliceBody}) and the slice the instance that
 * coordinates a scan reads back from it.
 */
public final class PeerSlices {

  private final CursorCodec cursors;

  private final ObjectMapper mapper;

  private final @Nullable PositionTokens tokens;

  /** Slices with positions in {@code cursors}' tokens, JSON by {@code mapper}. */
  public PeerSlices(CursorCodec cursors, ObjectMapper mapper) {
    this(cursors, mapper, null);
  }

  /** Slices as above whose replicas' positions, read with {@code tokens}, come back with them. */
  public PeerSlices(CursorCodec cursors, ObjectMapper mapper, @Nullable PositionTokens tokens) {
    this.cursors = cursors;
    this.mapper = mapper;
    this.tokens = tokens;
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

  private <T> SliceBody<T> body(String viewName, List<T> items, Slice<?> slice) {
    ScanPosition last = slice.last();
    return new SliceBody<>(
        items,
        last != null ? this.cursors.encodePosition(viewName, last) : null,
        slice.exhausted());
  }

  /** Keys, read back as their JSON. */
  public static final Kind<KeyItem> KEYS =
      new Kind<>("keys", (item) -> new KeyItem(item.path("key"), item.path("value")));

  /** Windows, read back with their bounds, sent as epoch milliseconds ({@link PeerWindow}). */
  public static final Kind<WindowItem> WINDOWS =
      new Kind<>(
          "windows",
          (item) ->
              new WindowItem(
                  item.path("key"),
                  epochMilli(item, "start"),
                  epochMilli(item, "end"),
                  item.path("value")));

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
    PeerPath path =
        PeerPath.of(view.name(), "partitions", Integer.toString(partition), kind.path())
            .param("limit", limit);
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
      JsonNode body = this.mapper.readTree(response.body());
      List<T> items = new ArrayList<>();
      for (JsonNode item : body.path("items")) {
        items.add(kind.reader().apply(item));
      }
      JsonNode last = body.path("last");
      return new Routed.Local<>(
          new Slice<>(
              items,
              last.isString() ? this.cursors.decodePosition(view.name(), last.asString()) : null,
              body.path("exhausted").asBoolean()),
          position(view, response));
    } catch (JacksonException | IllegalArgumentException ex) {
      PeerFailures.warn(owner, view.name(), "sent a slice that cannot be read: " + ex.getMessage());
      return unreadable(view, owner, "sent a slice that cannot be read: " + ex.getMessage());
    }
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
   * What a slice holds: the path segment that asks for it and how an item is read back.
   *
   * @param path {@code keys} or {@code windows}
   * @param reader reads one item of the body
   * @param <T> the item type
   */
  public record Kind<T>(String path, Function<JsonNode, T> reader) {}

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
