package dev.matview.test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The query parameters and headers that an {@link HttpView} adds to each of its requests.
 *
 * @param parameters query parameters, in order, a name perhaps more than once
 * @param headers request headers, in order, a name perhaps more than once
 */
record RequestOptions(
    List<Map.Entry<String, String>> parameters, List<Map.Entry<String, String>> headers) {

  /** No parameter and no header. */
  static final RequestOptions NONE = new RequestOptions(List.of(), List.of());

  /** These options and the query parameter {@code name} with {@code value}. */
  RequestOptions withParameter(String name, String value) {
    return new RequestOptions(added(this.parameters, name, value), this.headers);
  }

  /** These options and the header {@code name} with {@code value}. */
  RequestOptions withHeader(String name, String value) {
    return new RequestOptions(this.parameters, added(this.headers, name, value));
  }

  private static List<Map.Entry<String, String>> added(
      List<Map.Entry<String, String>> entries, String name, String value) {
    Objects.requireNonNull(name, "name must not be null");
    Objects.requireNonNull(value, "value must not be null");
    List<Map.Entry<String, String>> added = new ArrayList<>(entries);
    added.add(Map.entry(name, value));
    return List.copyOf(added);
  }
}
