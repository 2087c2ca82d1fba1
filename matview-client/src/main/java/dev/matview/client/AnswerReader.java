package dev.matview.client;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the bodies of a view's answers as its key and value types: a key's value, its windows, a
 * batch of values or of windows, the pages of scans and the lines of streamed scans ({@link
 * ChangeReader} reads the events of change streams with it). The answer's own members are read by
 * name, and only keys and values by the mapper, whose settings then apply to them alone; decimals
 * are read exactly, whatever the value type.
 *
 * @param <K> the view's key type
 * @param <V> the view's value type
 */
final class AnswerReader<K, V> {

  private final String view;

  private final JsonMapper mapper;

  private final ObjectReader trees;

  private final JavaType keyType;

  private final JavaType valueType;

  AnswerReader(String view, JsonMapper mapper, JavaType keyType, JavaType valueType) {
    this.view = view;
    this.mapper = mapper;
    this.trees =
        mapper
            .reader()
            .with(JsonNodeFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .without(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES);
    this.keyType = keyType;
    this.valueType = valueType;
  }

  /** The value of {@code {"key": …, "value": …}}. */
  V value(RawAnswer answer) {
    return read(answer, body -> value(body));
  }

  /** The windows of {@code {"key": …, "windows": [{"start", "end", "value"}]}}. */
  List<Window<V>> windows(RawAnswer answer) {
    return read(answer, this::windowsOf);
  }

  /** Each key's windows of {@code {"items": [{"key", "windows": [...]}]}}, in the order asked. */
  Map<K, List<Window<V>>> windowBatch(RawAnswer answer) {
    Map<K, List<Window<V>>> items = new LinkedHashMap<>();
    return read(
        answer,
        body -> {
          array(body, "items").forEach(item -> items.put(key(item), windowsOf(item)));
          return Collections.unmodifiableMap(items);
        });
  }

  private List<Window<V>> windowsOf(JsonNode body) {
    return array(body, "windows")
        .valueStream()
        .map(w -> new Window<>(instant(w, "start"), instant(w, "end"), value(w)))
        .toList();
  }

  /** The items of {@code {"items": [{"key", "found", "value"}]}}, in the order asked. */
  List<BatchItem<K, V>> batch(RawAnswer answer) {
    return read(answer, body -> array(body, "items").valueStream().map(this::batchItem).toList());
  }

  private BatchItem<K, V> batchItem(JsonNode item) {
    boolean found = item.path("found").asBoolean(false);
    return new BatchItem<>(key(item), found, found ? value(item) : null);
  }

  /** The page of {@code {"items": [{"key", "value"}], "nextCursor": …}}. */
  Page<KeyValue<K, V>> keyPage(RawAnswer answer) {
    return page(answer, this::keyValue);
  }

  /** The page of {@code {"items": [{"key", "start", "end", "value"}], "nextCursor": …}}. */
  Page<KeyWindow<K, V>> windowPage(RawAnswer answer) {
    return page(answer, this::keyWindow);
  }

  private <T> Page<T> page(RawAnswer answer, BodyReader<T> items) {
    return read(
        answer,
        body -> {
          List<T> read = new ArrayList<>();
          for (JsonNode item : array(body, "items")) {
            read.add(items.read(item));
          }
          return new Page<>(read, cursor(body));
        });
  }

  /** The line of a streamed scan of a table: {@code {"key", "value"}}, or the last line. */
  ScanLine<KeyValue<K, V>> keyLine(byte[] line) {
    return line(line, this::keyValue);
  }

  /**
   * The line of a streamed scan of windows: {@code {"key", "start", "end", "value"}}, or the last
   * line.
   */
  ScanLine<KeyWindow<K, V>> windowLine(byte[] line) {
    return line(line, this::keyWindow);
  }

  private KeyValue<K, V> keyValue(JsonNode item) {
    return new KeyValue<>(key(item), value(item));
  }

  private KeyWindow<K, V> keyWindow(JsonNode item) {
    return new KeyWindow<>(key(item), instant(item, "start"), instant(item, "end"), value(item));
  }

  /**
   * An item line, which has a {@code key}, or the last line: {@code {"nextCursor": …}} with the
   * {@code problem} that stopped the scan early.
   */
  private <T> ScanLine<T> line(byte[] line, BodyReader<T> items) {
    return read(
        new RawAnswer(200, HttpHeaders.EMPTY, line),
        body ->
            body.has("key")
                ? ScanLine.of(items.read(body))
                : ScanLine.last(cursor(body), problem(body)));
  }

  /**
   * The {@code problem} of a last line as the refusal it stands for, its {@code retryAfterSeconds}
   * as the {@code Retry-After}; a problem without a status is taken for a 500.
   */
  private @Nullable RawAnswer problem(JsonNode body) {
    JsonNode problem = body.get("problem");
    if (problem == null || !problem.isObject()) {
      return null;
    }
    JsonNode status = problem.get("status");
    JsonNode retryAfter = problem.get("retryAfterSeconds");
    HttpHeaders headers = new HttpHeaders();
    if (retryAfter != null && retryAfter.isIntegralNumber()) {
      headers.set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfter.longValue()));
    }
    return new RawAnswer(
        (status != null && status.isIntegralNumber()) ? status.intValue() : 500,
        headers,
        this.mapper.writeValueAsBytes(problem));
  }

  /** The {@code key} of {@code parent}, required. */
  K key(JsonNode parent) {
    return required(parent, "key", this.keyType);
  }

  /** The {@code value} of {@code parent}, required. */
  V value(JsonNode parent) {
    return required(parent, "value", this.valueType);
  }

  /**
   * What {@code reader} reads of {@code answer}'s body, a JSON object.
   *
   * @throws MatviewClientException when the body is not one or cannot be read so
   */
  <T> T read(RawAnswer answer, BodyReader<T> reader) {
    try {
      JsonNode body = this.trees.readTree(answer.body());
      if (body == null || !body.isObject()) {
        throw new IllegalArgumentException("the body is not a JSON object");
      }
      return reader.read(body);
    } catch (JacksonException | IllegalArgumentException ex) {
      throw new MatviewClientException(
          "View '"
              + this.view
              + "' answered "
              + answer.status()
              + " with a body that cannot be read as "
              + this.keyType.getTypeName()
              + " keys and "
              + this.valueType.getTypeName()
              + " values: "
              + ex.getMessage(),
          this.view,
          answer.status(),
          null,
          ex);
    }
  }

  private <T> T required(JsonNode parent, String name, JavaType type) {
    JsonNode node = parent.get(name);
    if (node == null || node.isNull()) {
      throw new IllegalArgumentException("'" + name + "' is missing");
    }
    T value = this.mapper.treeToValue(node, type);
    if (value == null) {
      throw new IllegalArgumentException("'" + name + "' is null");
    }
    return value;
  }

  /** The instant {@code name} of {@code parent}, required. */
  Instant instant(JsonNode parent, String name) {
    return required(parent, name, this.mapper.constructType(Instant.class));
  }

  private static JsonNode array(JsonNode body, String name) {
    JsonNode node = body.get(name);
    if (node == null || !node.isArray()) {
      throw new IllegalArgumentException("'" + name + "' is not an array");
    }
    return node;
  }

  private static @Nullable String cursor(JsonNode body) {
    JsonNode node = body.get("nextCursor");
    return (node == null || node.isNull()) ? null : node.asString();
  }

  /** Reads a body that is a JSON object. */
  @FunctionalInterface
  interface BodyReader<T> {

    /** What {@code body} holds. */
    T read(JsonNode body);
  }
}
