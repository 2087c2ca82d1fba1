package dev.matview.test;

import dev.matview.topology.ResolvedView;
import java.util.Objects;
import tools.jackson.databind.ObjectMapper;

/** Writes a view's key as the starter reads it from a request: a record as JSON, others as text. */
final class RawKeys {

  private RawKeys() {}

  /**
   * {@code key} of {@code view} as text, a record key written as JSON by {@code mapper}.
   *
   * @throws IllegalArgumentException when the key is not of the view's key type
   */
  static String of(ResolvedView<?, ?, ?> view, ObjectMapper mapper, Object key) {
    Objects.requireNonNull(key, "key must not be null");
    ViewChecks.requireKeyType(view, key.getClass(), "pass the key as a");
    return view.definition().keyType().isRecord() ? mapper.writeValueAsString(key) : key.toString();
  }
}
