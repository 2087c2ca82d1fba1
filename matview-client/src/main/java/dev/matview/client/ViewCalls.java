package dev.matview.client;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The calls of one view: each builds its request, sends it through the exchange and reads the
 * answer as the view's types, or throws the refusal.
 *
 * @param <K> the view's key type
 * @param <V> the view's value type
 */
final class ViewCalls<K, V> {

  private final String view;

  private final String basePath;

  private final ViewExchange exchange;

  private final KeyFormat keys;

  private final AnswerReader<K, V> reader;

  ViewCalls(
      String view,
      String basePath,
      ViewExchange exchange,
      KeyFormat keys,
      AnswerReader<K, V> reader) {
    this.view = view;
    this.basePath = basePath;
    this.exchange = exchange;
    this.keys = keys;
    this.reader = reader;
  }

  String view() {
    return this.view;
  }

  /** Follows the changes of {@code key}, handing each to {@code listener}. */
  ChangeSubscription changes(K key, Consumer<Change<K, V>> listener) {
    return new ChangeFollower<>(
            this.view,
            this.basePath + "/{view}/key/changes?key={key}",
            this.keys.text(key),
            this.exchange,
            new ChangeReader<>(this.reader),
            listener)
        .start();
  }

  /**
   * The value of {@code key}, asked with the key in the query ({@code .../key?key=}), which carries
   * any key: servers and proxies may refuse or rewrite a {@code /}, a {@code \} or a dot segment in
   * a path.
   */
  Answer<Optional<V>> get(K key, CallOptions options) {
    ViewRequest request = keyRequest(key);
    RawAnswer answer = send(request, options);
    if (this.exchange.problems().isKeyNotFound(answer)) {
      return new Answer<>(Optional.empty(), answer.metadata());
    }
    return new Answer<>(Optional.of(this.reader.value(successful(answer))), answer.metadata());
  }

  Answer<List<Window<V>>> windows(
      K key, @Nullable Instant from, @Nullable Instant to, CallOptions options) {
    ViewRequest request = keyRequest(key, "windows").param("from", from).param("to", to);
    RawAnswer answer = successful(send(request, options));
    return new Answer<>(this.reader.windows(answer), answer.metadata());
  }

  /**
   * The GET of {@code key}'s read at {@code segments} below {@code .../key}, the key in the query.
   */
  private ViewRequest keyRequest(K key, String... segments) {
    ViewRequest request = ViewRequest.get(this.basePath, this.view).segment("key");
    for (String segment : segments) {
      request.segment(segment);
    }
    return request.param("key", this.keys.text(key));
  }

  Answer<List<BatchItem<K, V>>> batch(Collection<? extends K> keys, CallOptions options) {
    ViewRequest request =
        ViewRequest.post(this.basePath, this.view, this.keys.batchBody(keys)).segment("batch");
    RawAnswer answer = successful(send(request, options));
    return new Answer<>(this.reader.batch(answer), answer.metadata());
  }

  Answer<Map<K, List<Window<V>>>> windowBatch(
      Collection<? extends K> keys,
      @Nullable Instant from,
      @Nullable Instant to,
      CallOptions options) {
    ViewRequest request =
        ViewRequest.post(this.basePath, this.view, this.keys.batchBody(keys))
            .segment("batch")
            .param("from", from)
            .param("to", to);
    RawAnswer answer = successful(send(request, options));
    return new Answer<>(this.reader.windowBatch(answer), answer.metadata());
  }

  Answer<Page<KeyValue<K, V>>> keyPage(
      @Nullable K from, @Nullable K to, @Nullable String cursor, CallOptions options) {
    ViewRequest request =
        ViewRequest.get(this.basePath, this.view)
            .segment("keys")
            .param("from", (from != null) ? this.keys.text(from) : null)
            .param("to", (to != null) ? this.keys.text(to) : null)
            .param("limit", options.pageSize())
            .param("cursor", cursor);
    RawAnswer answer = successful(send(request, options));
    return new Answer<>(this.reader.keyPage(answer), answer.metadata());
  }

  Answer<Page<KeyWindow<K, V>>> windowPage(
      @Nullable Instant from, @Nullable Instant to, @Nullable String cursor, CallOptions options) {
    ViewRequest request =
        ViewRequest.get(this.basePath, this.view)
            .segment("windows")
            .param("from", from)
            .param("to", to)
            .param("limit", options.pageSize())
            .param("cursor", cursor);
    RawAnswer answer = successful(send(request, options));
    return new Answer<>(this.reader.windowPage(answer), answer.metadata());
  }

  /** The keys within [{@code from}, {@code to}] and their values, from a streamed response. */
  Stream<KeyValue<K, V>> keyStream(@Nullable K from, @Nullable K to, CallOptions options) {
    return StreamedScan.stream(
        this.view,
        this.exchange,
        options,
        (cursor, after) ->
            options.applyTo(
                ViewRequest.get(this.basePath, this.view)
                    .segment("keys")
                    .param("from", (from != null) ? this.keys.text(from) : null)
                    .param("to", (to != null) ? this.keys.text(to) : null)
                    .param("cursor", cursor)
                    .param("afterKey", (after != null) ? this.keys.text(after.key()) : null)),
        this.reader::keyLine);
  }

  /** The windows whose start lies in [{@code from}, {@code to}], from a streamed response. */
  Stream<KeyWindow<K, V>> windowStream(
      @Nullable Instant from, @Nullable Instant to, CallOptions options) {
    return StreamedScan.stream(
        this.view,
        this.exchange,
        options,
        (cursor, after) ->
            options.applyTo(
                ViewRequest.get(this.basePath, this.view)
                    .segment("windows")
                    .param("from", from)
                    .param("to", to)
                    .param("cursor", cursor)
                    .param("afterKey", (after != null) ? this.keys.text(after.key()) : null)
                    .param("afterStart", (after != null) ? after.start() : null)),
        this.reader::windowLine);
  }

  private RawAnswer send(ViewRequest request, CallOptions options) {
    return this.exchange.exchange(this.view, options.applyTo(request), options);
  }

  private RawAnswer successful(RawAnswer answer) {
    if (!answer.successful()) {
      throw this.exchange.problems().refusal(this.view, answer);
    }
    return answer;
  }
}
