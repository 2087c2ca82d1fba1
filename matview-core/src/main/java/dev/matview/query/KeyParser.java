package dev.matview.query;

import dev.matview.query.answer.InvalidQueryException;
import dev.matview.topology.ResolvedView;
import java.util.UUID;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectReader;

/** Turns a key as written in a URL into the view's key type. */
public final class KeyParser {

  private final ObjectReader reader;

  /** A parser that reads JSON keys with {@code mapper}, refusing a field named twice. */
  public KeyParser(ObjectMapper mapper) {
    this.reader = RequestJson.reader(mapper);
  }

  /** The key {@code raw} as a {@code type}; an IllegalArgumentException says why not. */
  public <K> K parse(Class<K> type, String raw) {
    try {
      return type.cast(convert(type, raw));
    } catch (NumberFormatException ex) {
      throw new IllegalArgumentException(
          "'" + raw + "' is not a " + type.getSimpleName() + " (a whole number in range)", ex);
    } catch (JacksonException ex) {
      throw new IllegalArgumentException(
          "'"
              + raw
              + "' is not a JSON "
              + type.getSimpleName()
              + " key: "
              + ex.getOriginalMessage(),
          ex);
    } catch (IllegalArgumentException ex) {
      throw new IllegalArgumentException(
          "'" + raw + "' is not a " + type.getSimpleName() + ": " + ex.getMessage(), ex);
    }
  }

  /** The key {@code raw}, written in a path, as {@code view}'s key type. */
  public <K> K key(ResolvedView<K, ?, ?> view, String raw) {
    try {
      return parse(view.definition().keyType(), raw);
    } catch (IllegalArgumentException ex) {
      throw new InvalidQueryException(
          view.name(), "key", "Key " + ex.getMessage() + " as view '" + view.name() + "' needs");
    }
  }

  private Object convert(Class<?> type, String raw) {
    if (type == String.class) {
      return raw;
    }
    if (type == Long.class) {
      return Long.valueOf(raw);
    }
    if (type == Integer.class) {
      return Integer.valueOf(raw);
    }
    if (type == UUID.class) {
      return UUID.fromString(raw);
    }
    return this.reader.forType(type).readValue(raw);
  }
}
