package dev.matview.client;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpMethod;

/**
 * One request of a view as a URI template below the base path and its variables, so that the {@code
 * RestClient} encodes every key, bound and token as a value: a {@code /} or {@code ?} in a key
 * stays part of the key.
 */
final class ViewRequest {

  private final HttpMethod method;

  private final StringBuilder template;

  private final Map<String, String> variables = new LinkedHashMap<>();

  private byte @Nullable [] body;

  private boolean inQuery;

  private ViewRequest(HttpMethod method, String basePath, String view) {
    this.method = method;
    this.template = new StringBuilder(basePath).append("/{view}");
    this.variables.put("view", view);
  }

  /** A GET of {@code view}'s path below {@code basePath}. */
  static ViewRequest get(String basePath, String view) {
    return new ViewRequest(HttpMethod.GET, basePath, view);
  }

  /** A POST of {@code json} to {@code view}'s path below {@code basePath}. */
  static ViewRequest post(String basePath, String view, byte[] json) {
    ViewRequest request = new ViewRequest(HttpMethod.POST, basePath, view);
    request.body = json;
    return request;
  }

  /** Appends the fixed path segment {@code segment}. */
  ViewRequest segment(String segment) {
    requirePath();
    this.template.append('/').append(segment);
    return this;
  }

  /** Adds the query parameter {@code name} with {@code value}; nothing when it is {@code null}. */
  ViewRequest param(String name, @Nullable Object value) {
    if (value == null) {
      return this;
    }
    String variable = "v" + this.variables.size();
    this.template.append(this.inQuery ? '&' : '?').append(name).append("={").append(variable);
    this.template.append('}');
    this.variables.put(variable, value.toString());
    this.inQuery = true;
    return this;
  }

  HttpMethod method() {
    return this.method;
  }

  String template() {
    return this.template.toString();
  }

  Map<String, String> variables() {
    return this.variables;
  }

  byte @Nullable [] body() {
    return this.body;
  }

  private void requirePath() {
    if (this.inQuery) {
      throw new IllegalStateException("Path segments go before the query parameters");
    }
  }
}
