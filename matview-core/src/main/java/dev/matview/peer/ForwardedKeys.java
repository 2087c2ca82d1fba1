package dev.matview.peer;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Both ends of the wire format of key lookups that one instance forwards to another together, in
 * one request: {@code POST <view>/forwarded-keys} with the keys as a batch carries them, each with
 * the bound its lookup asks for in {@code "bounds"} when any does, answered by one {@link Answer}
 * per key, in the order sent, each the status, headers and body that a lookup of that key alone
 * would have got.
 */
public final class ForwardedKeys {

  /** The last path segment, after the view's. */
  public static final String SEGMENT = "forwarded-keys";

  private ForwardedKeys() {}

  /**
   * The body that asks for {@code keys}, each under the bound at the same place of {@code bounds}:
   * its position token, if any, and the input records it names ({@code after=}); without {@code
   * "bounds"} when none asks for anything.
   */
  public static byte[] request(ObjectMapper mapper, List<String> keys, List<Bound> bounds) {
    ObjectNode body = mapper.createObjectNode();
    ArrayNode array = body.putArray("keys");
    keys.forEach(array::add);
    if (bounds.stream().allMatch(Bound::isNone)) {
      return mapper.writeValueAsBytes(body);
    }
    ArrayNode boundArray = body.putArray("bounds");
    for (Bound bound : bounds) {
      ObjectNode item = boundArray.addObject();
      if (bound.position() != null) {
        item.put("position", bound.position());
      }
      ArrayNode after = item.putArray("after");
      bound.after().forEach(after::add);
    }
    return mapper.writeValueAsBytes(body);
  }

  /**
   * The bounds of {@code body}, one per key: none for every key when it has no {@code "bounds"};
   * {@code null} unless it holds exactly {@code expected} of them, each well formed.
   */
  public static @Nullable List<Bound> bounds(JsonNode body, int expected) {
    JsonNode bounds = body.path("bounds");
    if (bounds.isMissingNode()) {
      return Collections.nCopies(expected, Bound.NONE);
    }
    if (!bounds.isArray() || bounds.size() != expected) {
      return null;
    }
    List<Bound> read = new ArrayList<>(expected);
    for (JsonNode item : bounds) {
      JsonNode position = item.path("position");
      JsonNode after = item.path("after");
      if (!(position.isMissingNode() || position.isString()) || !after.isArray()) {
        return null;
      }
      List<String> records = new ArrayList<>(after.size());
      for (JsonNode record : after) {
        if (!record.isString()) {
          return null;
        }
        records.add(record.asString());
      }
      read.add(new Bound(position.isString() ? position.asString() : null, records));
    }
    return read;
  }

  /**
   * The answers in {@code body}, or {@code null} unless it holds exactly {@code expected} of them:
   * an instance that does not know this format, or that failed, is asked for each key alone.
   */
  public static @Nullable List<Answer> answers(ObjectMapper mapper, byte[] body, int expected) {
    JsonNode tree;
    try {
      tree = mapper.readTree(body);
    } catch (JacksonException ex) {
      return null;
    }
    if (tree == null || !tree.isArray() || tree.size() != expected) {
      return null;
    }
    List<Answer> answers = new ArrayList<>(expected);
    for (JsonNode item : tree) {
      JsonNode headers = item.path("headers");
      if (!item.path("status").isInt() || !item.path("body").isString() || !headers.isObject()) {
        return null;
      }
      Map<String, String> named = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> header : headers.properties()) {
        named.put(header.getKey(), header.getValue().asString());
      }
      answers.add(new Answer(item.path("status").asInt(), named, item.path("body").asString()));
    }
    return answers;
  }

  /**
   * What a lookup of one key would have answered alone.
   *
   * @param status its HTTP status
   * @param headers its headers that a relay passes on
   * @param body its body, JSON text
   */
  public record Answer(int status, Map<String, String> headers, String body) {}

  /**
   * What one key's lookup asks its answer to include.
   *
   * @param position a position token sent back, or {@code null}
   * @param after the input records it names, each as {@code topic:partition:offset}
   */
  public record Bound(@Nullable String position, List<String> after) {

    /** What a lookup that asks for nothing carries. */
    public static final Bound NONE = new Bound(null, List.of());

    /** Copies the records. */
    public Bound {
      after = List.copyOf(after);
    }

    /** Whether the lookup asks for nothing. */
    boolean isNone() {
      return this.position == null && this.after.isEmpty();
    }
  }
}
