package dev.matview.test;

import dev.matview.peer.ProblemTypes;
import dev.matview.topology.ResolvedView;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClient.RequestHeadersSpec.ConvertibleClientHttpResponse;
import org.springframework.web.client.RestClientResponseException;
import org.springframework.web.util.UriUtils;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Sends the requests of {@link HttpView}s to the application's views and reads their JSON answers;
 * any status but 200, and 404 for a key without a value where a lookup asks for it, is thrown as
 * Spring's {@link RestClientResponseException} of that status.
 */
final class ViewCalls {

  private final RestClient http;

  private final AppAddress address;

  private final ObjectMapper mapper;

  ViewCalls(RestClient http, AppAddress address, ObjectMapper mapper) {
    this.http = http;
    this.address = address;
    this.mapper = mapper;
  }

  /**
   * Sends GET to the path of {@code segments} under the views' base path, with {@code query} and
   * the options. With {@code absentWhenNotFound} a 404 that says the key has no value answers a
   * missing node instead of throwing.
   */
  ViewAnswer<JsonNode> get(
      List<String> segments,
      List<Map.Entry<String, String>> query,
      RequestOptions options,
      boolean absentWhenNotFound) {
    return this.http
        .get()
        .uri(uri(segments, query, options))
        .headers(headers -> options.headers().forEach(h -> headers.add(h.getKey(), h.getValue())))
        .accept(MediaType.APPLICATION_JSON, MediaType.APPLICATION_PROBLEM_JSON)
        .exchange((request, response) -> answer(response, absentWhenNotFound));
  }

  /**
   * Sends GET for a streamed scan ({@code Accept: application/x-ndjson}) to the path of {@code
   * segments}, with {@code query} and the options, and reads every line of its answer.
   */
  ViewAnswer<List<JsonNode>> getLines(
      List<String> segments, List<Map.Entry<String, String>> query, RequestOptions options) {
    return this.http
        .get()
        .uri(uri(segments, query, options))
        .headers(headers -> options.headers().forEach(h -> headers.add(h.getKey(), h.getValue())))
        .accept(MediaType.APPLICATION_NDJSON, MediaType.APPLICATION_PROBLEM_JSON)
        .exchange((request, response) -> lines(response));
  }

  /** Sends {@code body} as JSON by POST to the path of {@code segments}, with the options. */
  ViewAnswer<JsonNode> post(List<String> segments, Object body, RequestOptions options) {
    return this.http
        .post()
        .uri(uri(segments, List.of(), options))
        .headers(headers -> options.headers().forEach(h -> headers.add(h.getKey(), h.getValue())))
        .contentType(MediaType.APPLICATION_JSON)
        .accept(MediaType.APPLICATION_JSON, MediaType.APPLICATION_PROBLEM_JSON)
        .body(this.mapper.writeValueAsBytes(body))
        .exchange((request, response) -> answer(response, false));
  }

  /** {@code node} read as {@code type}, by the views' mapper. */
  <T> T read(JsonNode node, Class<T> type) {
    return this.mapper.treeToValue(node, type);
  }

  /**
   * {@code key} of {@code view} as a path segment or a query parameter carries it.
   *
   * @throws IllegalArgumentException when the key is not of the view's key type
   */
  String rawKey(ResolvedView<?, ?, ?> view, Object key) {
    return RawKeys.of(view, this.mapper, key);
  }

  /**
   * {@code key} of {@code view} as a batch body carries it, written as JSON by the views' mapper.
   *
   * @throws IllegalArgumentException when the key is not of the view's key type
   */
  JsonNode keyTree(ResolvedView<?, ?, ?> view, Object key) {
    Objects.requireNonNull(key, "key must not be null");
    ViewChecks.requireKeyType(view, key.getClass(), "pass the key as a");
    return this.mapper.valueToTree(key);
  }

  private ViewAnswer<JsonNode> answer(
      ConvertibleClientHttpResponse response, boolean absentWhenNotFound) throws IOException {
    if (response.getStatusCode().isSameCodeAs(HttpStatus.OK)) {
      JsonNode body = this.mapper.readTree(response.getBody());
      return new ViewAnswer<>(200, body, response.getHeaders());
    }
    RestClientResponseException failure = response.createException();
    if (absentWhenNotFound && isKeyNotFound(failure)) {
      return new ViewAnswer<>(404, this.mapper.missingNode(), response.getHeaders());
    }
    throw failure;
  }

  private ViewAnswer<List<JsonNode>> lines(ConvertibleClientHttpResponse response)
      throws IOException {
    if (!response.getStatusCode().isSameCodeAs(HttpStatus.OK)) {
      throw response.createException();
    }
    List<JsonNode> lines = new ArrayList<>();
    try (BufferedReader body =
        new BufferedReader(new InputStreamReader(response.getBody(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = body.readLine()) != null) {
        lines.add(this.mapper.readTree(line));
      }
    }
    return new ViewAnswer<>(200, List.copyOf(lines), response.getHeaders());
  }

  private boolean isKeyNotFound(RestClientResponseException failure) {
    if (!failure.getStatusCode().isSameCodeAs(HttpStatus.NOT_FOUND)) {
      return false;
    }
    try {
      JsonNode problem = this.mapper.readTree(failure.getResponseBodyAsByteArray());
      return ProblemTypes.KEY_NOT_FOUND.toString().equals(problem.path("type").asString());
    } catch (JacksonException ex) {
      return false;
    }
  }

  private URI uri(
      List<String> segments, List<Map.Entry<String, String>> query, RequestOptions options) {
    StringBuilder uri = new StringBuilder(this.address.views());
    segments.forEach(segment -> uri.append('/').append(encode(segment)));
    char separator = '?';
    for (Map.Entry<String, String> parameter : concat(query, options.parameters())) {
      uri.append(separator).append(encode(parameter.getKey()));
      uri.append('=').append(encode(parameter.getValue()));
      separator = '&';
    }
    return URI.create(uri.toString());
  }

  private static List<Map.Entry<String, String>> concat(
      List<Map.Entry<String, String>> first, List<Map.Entry<String, String>> second) {
    return Stream.concat(first.stream(), second.stream()).toList();
  }

  /** {@code text} with every character but RFC 3986's unreserved ones percent-encoded as UTF-8. */
  private static String encode(String text) {
    return UriUtils.encode(text, StandardCharsets.UTF_8);
  }
}
