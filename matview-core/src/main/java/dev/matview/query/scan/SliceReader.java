package dev.matview.query.scan;

import dev.matview.peer.PeerResponse;
import dev.matview.position.PositionTokenException;
import dev.matview.position.PositionTokens;
import dev.matview.position.ViewPosition;
import dev.matview.query.answer.ItemLines;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.Slice;
import dev.matview.query.peer.PeerFailures;
import dev.matview.topology.ResolvedView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectReader;

/**
 * The slice that the instance coordinating a scan reads back from another instance's answer, with
 * the position of the replica that read it; or the refusal of an answer it cannot read.
 */
final class SliceReader {

  private final CursorCodec cursors;

  private final ObjectMapper mapper;

  private final @Nullable PositionTokens tokens;

  /** Reads numbers with fractions as written, so that a value passes on as its owner wrote it. */
  private final ObjectReader itemsReader;

  SliceReader(CursorCodec cursors, ObjectMapper mapper, @Nullable PositionTokens tokens) {
    this.cursors = cursors;
    this.mapper = mapper;
    this.tokens = tokens;
    this.itemsReader = mapper.reader().with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
  }

  /**
   * The slice of {@code kind} in {@code owner}'s answer to a request for one; the owner's problem
   * detail to pass on as it is when it refused; or a refusal when the answer cannot be read.
   */
  <T> Routed<Slice<T>> read(
      ResolvedView<?, ?, ?> view,
      PartitionOwner owner,
      PeerSlices.Kind<T> kind,
      PeerResponse response) {
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
  <T> Slice<T> jsonItems(String view, byte[] bytes, Function<JsonNode, T> reader) {
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

  /** A window bound sent as epoch milliseconds; anything else makes the slice unreadable. */
  static Instant epochMilli(JsonNode item, String bound) {
    JsonNode millis = item.path(bound);
    if (!millis.isIntegralNumber() || !millis.canConvertToLong()) {
      throw new IllegalArgumentException(
          "a window's " + bound + " is not a whole number of epoch milliseconds");
    }
    return Instant.ofEpochMilli(millis.asLong());
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
}
