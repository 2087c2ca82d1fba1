package dev.matview.test;

import dev.matview.topology.ResolvedView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One view of the application under test, read over HTTP through the application's real port with
 * the view's own key and value types. Each option ({@link #after}, {@link #position}, {@link
 * #parameter}, {@link #header}) answers a new {@code HttpView} that adds it to every request.
 *
 * <p>A lookup answers status 200, or 404 with an empty body for a key without a value; any other
 * status is thrown as Spring's {@link org.springframework.web.client.RestClientResponseException}
 * of that status, whose response body is the problem detail.
 *
 * @param <K> the view's key type
 * @param <A> the view's value type
 */
public final class HttpView<K, A> {

  private final ViewCalls calls;

  private final ResolvedView<?, ?, ?> view;

  private final Class<K> keyType;

  private final Class<A> valueType;

  private final RequestOptions options;

  HttpView(
      ViewCalls calls,
      ResolvedView<?, ?, ?> view,
      Class<K> keyType,
      Class<A> valueType,
      RequestOptions options) {
    this.calls = calls;
    this.view = view;
    this.keyType = keyType;
    this.valueType = valueType;
    this.options = options;
  }

  /** The view's name. */
  public String name() {
    return this.view.name();
  }

  /** The value of {@code key} in this table view; an empty body when the view holds none (404). */
  public ViewAnswer<Optional<A>> get(K key) {
    ViewChecks.requireTable(this.view, "read the key's windows with windows(key)");
    ViewAnswer<JsonNode> answer =
        this.calls.get(List.of(name(), "key"), List.of(keyParameter(key)), this.options, true);
    JsonNode body = answer.body();
    return answer.withBody(
        body.isMissingNode()
            ? Optional.empty()
            : Optional.of(this.calls.read(body.required("value"), this.valueType)));
  }

  /**
   * The windows of {@code key} in this windowed or session view, oldest first, over the default
   * range of the HTTP API: the view's retention back from now, and now.
   */
  public ViewAnswer<List<WindowedValue<A>>> windows(K key) {
    return windows(key, List.of());
  }

  /** The windows of {@code key} in this windowed or session view whose start lies in [from, to]. */
  public ViewAnswer<List<WindowedValue<A>>> windows(K key, Instant from, Instant to) {
    return windows(
        key, List.of(Map.entry("from", from.toString()), Map.entry("to", to.toString())));
  }

  /**
   * The values of {@code keys} in this table view, in the order asked, each empty when the view
   * holds none.
   */
  public ViewAnswer<List<Optional<A>>> batch(List<K> keys) {
    ViewChecks.requireTable(this.view, "read each key's windows with windows(key)");
    List<JsonNode> written = new ArrayList<>();
    for (K key : keys) {
      written.add(this.calls.keyTree(this.view, key));
    }
    ViewAnswer<JsonNode> answer =
        this.calls.post(List.of(name(), "batch"), Map.of("keys", written), this.options);
    List<Optional<A>> values = new ArrayList<>();
    for (JsonNode item : answer.body().required("items")) {
      values.add(
          item.required("found").asBoolean()
              ? Optional.of(this.calls.read(item.required("value"), this.valueType))
              : Optional.empty());
    }
    return answer.withBody(List.copyOf(values));
  }

  /**
   * A page of at most {@code limit} keys of this table view and their values, from {@code cursor}
   * (the previous page's {@link ViewPage#nextCursor()}, or {@code null} for the first page).
   */
  public ViewAnswer<ViewPage<K, A>> scan(int limit, @Nullable String cursor) {
    return scan(null, null, limit, cursor);
  }

  /**
   * A page of at most {@code limit} keys of this table view from {@code from} to {@code to} (a null
   * bound leaves that end open) and their values, from {@code cursor}.
   */
  public ViewAnswer<ViewPage<K, A>> scan(
      @Nullable K from, @Nullable K to, int limit, @Nullable String cursor) {
    ViewChecks.requireTable(this.view, "read each key's windows with windows(key)");
    List<Map.Entry<String, String>> query = keyBounds(from, to);
    query.add(Map.entry("limit", Integer.toString(limit)));
    if (cursor != null) {
      query.add(Map.entry("cursor", cursor));
    }
    ViewAnswer<JsonNode> answer =
        this.calls.get(List.of(name(), "keys"), query, this.options, false);
    List<ViewEntry<K, A>> items = new ArrayList<>();
    for (JsonNode item : answer.body().required("items")) {
      items.add(entry(item));
    }
    JsonNode next = answer.body().path("nextCursor");
    return answer.withBody(new ViewPage<>(items, next.isString() ? next.asString() : null));
  }

  /**
   * Every key of this table view from {@code from} to {@code to} (a null bound leaves that end
   * open) and their values, in one streamed answer ({@code Accept: application/x-ndjson}): a page
   * of all of them, whose {@link ViewPage#nextCursor()} is {@code null} when the scan reached its
   * end, or the cursor to resume at when the application stopped it early.
   */
  public ViewAnswer<ViewPage<K, A>> stream(@Nullable K from, @Nullable K to) {
    ViewChecks.requireTable(this.view, "read each key's windows with windows(key)");
    List<Map.Entry<String, String>> query = keyBounds(from, to);
    ViewAnswer<List<JsonNode>> answer =
        this.calls.getLines(List.of(name(), "keys"), query, this.options);
    List<JsonNode> lines = answer.body();
    if (lines.isEmpty() || lines.get(lines.size() - 1).has("key")) {
      throw new IllegalStateException(
          "The streamed scan of view '" + name() + "' ended without its last line");
    }
    List<ViewEntry<K, A>> items = new ArrayList<>();
    for (JsonNode item : lines.subList(0, lines.size() - 1)) {
      items.add(entry(item));
    }
    JsonNode next = lines.get(lines.size() - 1).path("nextCursor");
    return answer.withBody(new ViewPage<>(items, next.isString() ? next.asString() : null));
  }

  /** The query parameters of a scan's bounds; a null bound is left out. */
  private List<Map.Entry<String, String>> keyBounds(@Nullable K from, @Nullable K to) {
    List<Map.Entry<String, String>> query = new ArrayList<>();
    if (from != null) {
      query.add(Map.entry("from", rawKey(from)));
    }
    if (to != null) {
      query.add(Map.entry("to", rawKey(to)));
    }
    return query;
  }

  /** One scanned item, its key and value read as this view's types. */
  private ViewEntry<K, A> entry(JsonNode item) {
    return new ViewEntry<>(
        this.calls.read(item.required("key"), this.keyType),
        this.calls.read(item.required("value"), this.valueType));
  }

  /**
   * This view, asking each answer to include the record {@code record} of a source topic: the
   * request waits until the view has applied it ({@code after=topic:partition:offset}).
   */
  public HttpView<K, A> after(RecordMetadata record) {
    Objects.requireNonNull(record, "record must not be null");
    return after(record.topic(), record.partition(), record.offset());
  }

  /** This view, asking each answer to include the record at {@code offset} of that partition. */
  public HttpView<K, A> after(String topic, int partition, long offset) {
    Objects.requireNonNull(topic, "topic must not be null");
    return parameter("after", topic + ":" + partition + ":" + offset);
  }

  /**
   * This view, asking each answer to be at least as new as {@code position}, a {@link
   * ViewAnswer#position()} of an earlier answer, sent as the {@code Matview-Position} header; send
   * it as the query parameter with {@code parameter("position", token)}.
   */
  public HttpView<K, A> position(String position) {
    return header(ViewAnswer.POSITION_HEADER, position);
  }

  /**
   * This view, adding the query parameter {@code name} with {@code value} to each request, such as
   * {@code allowStale} or {@code maxLag}; a name may be added more than once.
   */
  public HttpView<K, A> parameter(String name, String value) {
    return with(this.options.withParameter(name, value));
  }

  /** This view, adding the header {@code name} with {@code value} to each request. */
  public HttpView<K, A> header(String name, String value) {
    return with(this.options.withHeader(name, value));
  }

  private ViewAnswer<List<WindowedValue<A>>> windows(K key, List<Map.Entry<String, String>> range) {
    ViewChecks.requireWindows(this.view, "read the key's value with get(key)");
    List<Map.Entry<String, String>> query = new ArrayList<>(range);
    query.add(0, keyParameter(key));
    ViewAnswer<JsonNode> answer =
        this.calls.get(List.of(name(), "key", "windows"), query, this.options, false);
    List<WindowedValue<A>> windows = new ArrayList<>();
    for (JsonNode window : answer.body().required("windows")) {
      windows.add(
          new WindowedValue<>(
              this.calls.read(window.required("start"), Instant.class),
              this.calls.read(window.required("end"), Instant.class),
              this.calls.read(window.required("value"), this.valueType)));
    }
    return answer.withBody(List.copyOf(windows));
  }

  /** {@code key} as the query parameter that carries any key, one that holds a {@code /} too. */
  private Map.Entry<String, String> keyParameter(K key) {
    return Map.entry("key", rawKey(key));
  }

  private String rawKey(K key) {
    return this.calls.rawKey(this.view, key);
  }

  private HttpView<K, A> with(RequestOptions options) {
    return new HttpView<>(this.calls, this.view, this.keyType, this.valueType, options);
  }
}
