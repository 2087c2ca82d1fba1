package dev.matview.peer;

import java.util.ArrayList;
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
 * one request: {@code POST <view>/forwarded-keys} with the keys as a batch carries them, answered
 * by one {@link Answer} per key, in the order sent, each the status, headers and body that a lookup
 * of that key alone would have got.
 */
public final class ForwardedKeys {

  /** The last path segment, after the view's. */
  public static final String SEGMENT = "forwarded-keys";

  private ForwardedKeys() {}

  /** The body that asks for {@code keys}, each written as a path segment would carry it. */
  public static byte[] request(ObjectMapper mapper, List<String> keys) {
    ObjectNode body = mapper.createObjectNode();
    ArrayNode array = body.putArray("keys");
    keys.forEach(array::add);
    return mapper.writeValueAsBytes(body);
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
}
