package dev.matview.client;

import java.util.Collection;
import java.util.Map;
import java.util.UUID;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes keys as the server reads them: in a path or a bound as text ({@code String}, {@code Long},
 * {@code Integer} and {@code UUID} as they print, any other key as JSON), in a batch as JSON.
 */
final class KeyFormat {

  private final JsonMapper mapper;

  KeyFormat(JsonMapper mapper) {
    this.mapper = mapper;
  }

  /** {@code key} as a path segment or a key bound writes it, before encoding. */
  String text(Object key) {
    if (key instanceof String || key instanceof Long || key instanceof Integer) {
      return key.toString();
    }
    if (key instanceof UUID) {
      return key.toString();
    }
    return this.mapper.writeValueAsString(key);
  }

  /** The body of a batch lookup of {@code keys}: {@code {"keys": [...]}}. */
  byte[] batchBody(Collection<?> keys) {
    return this.mapper.writeValueAsBytes(Map.of("keys", keys));
  }
}
