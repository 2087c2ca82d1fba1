package dev.matview.client;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.jspecify.annotations.Nullable;

/**
 * A view of a Matview service, called over HTTP with typed keys and values. A handle is immutable
 * and safe to share: the {@code with…} and {@code after} methods return a new handle with other
 * options, and every handle of a view shares the client's position of that view.
 *
 * <p>Each call retries a 503 or 429 after its {@code Retry-After} while the deadline allows, then
 * throws {@link MatviewUnavailableException}; other refusals throw at once ({@link
 * MatviewBadRequestException}, {@link MatviewUnknownViewException}, or {@link
 * MatviewClientException}). The {@code lookup…} and {@code …Page} methods answer with what the
 * answer's headers say ({@link AnswerMetadata}).
 *
 * @param <K> the view's key type: {@code String}, {@code Long}, {@code Integer}, {@code UUID} or a
 *     record written as JSON
 * @param <V> the view's value type
 */
public final class RemoteView<K, V> {

  private final ViewCalls<K, V> calls;

  private final CallOptions options;

  RemoteView(ViewCalls<K, V> calls, CallOptions options) {
    this.calls = calls;
    this.options = options;
  }

  /** The view's name. */
  public String name() {
    return this.calls.view();
  }

  /** The value of {@code key} in a table view, empty when the key has none. */
  public Optional<V> get(K key) {
    return lookup(key).value();
  }

  /** The value of {@code key} in a table view, empty when the key has none, with its metadata. */
  public Answer<Optional<V>> lookup(K key) {
    return this.calls.get(requireKey(key), this.options);
  }

  /**
   * Follows the changes of {@code key} as they happen, handing each to {@code listener} on a thread
   * of the subscription's own: first the key's current value (or windows), then each new one. The
   * subscription reconnects by itself with the last event's id, so no change is lost or repeated
   * while the service keeps them; close it to stop.
   */
  public ChangeSubscription changes(K key, Consumer<Change<K, V>> listener) {
    return this.calls.changes(requireKey(key), listener);
  }

  /** The windows of {@code key} in the server's default range: the view's retention up to now. */
  public List<Window<V>> windows(K key) {
    return lookupWindows(key, null, null).value();
  }

  /** The windows of {@code key} whose start lies in [{@code from}, {@code to}], oldest first. */
  public List<Window<V>> windows(K key, Instant from, Instant to) {
    return lookupWindows(key, from, to).value();
  }

  /**
   * The windows of {@code key} whose start lies in [{@code from}, {@code to}], each bound the
   * server's default when {@code null}, with the answer's metadata.
   */
  public Answer<List<Window<V>>> lookupWindows(
      K key, @Nullable Instant from, @Nullable Instant to) {
    return this.calls.windows(requireKey(key), from, to, this.options);
  }

  /** The values of those of {@code keys} that have one, in the order asked, in one call. */
  public Map<K, V> getAll(Collection<? extends K> keys) {
    Map<K, V> values = new LinkedHashMap<>();
    for (BatchItem<K, V> item : lookupAll(keys).value()) {
      V value = item.value();
      if (item.found() && value != null) {
        values.put(item.key(), value);
      }
    }
    return values;
  }

  /** One item per key of {@code keys}, found or not, in the order asked, in one call. */
  public Answer<List<BatchItem<K, V>>> lookupAll(Collection<? extends K> keys) {
    Objects.requireNonNull(keys, "keys must not be null");
    keys.forEach(RemoteView::requireKey);
    return this.calls.batch(keys, this.options);
  }

  /**
   * The windows of each of {@code keys} in a windowed or session view whose start lies in [{@code
   * from}, {@code to}] (each bound the server's default when {@code null}), by key in the order
   * asked, in one call, with the answer's metadata.
   */
  public Answer<Map<K, List<Window<V>>>> lookupAllWindows(
      Collection<? extends K> keys, @Nullable Instant from, @Nullable Instant to) {
    Objects.requireNonNull(keys, "keys must not be null");
    keys.forEach(RemoteView::requireKey);
    return this.calls.windowBatch(keys, from, to, this.options);
  }

  /** Every key of a table view and its value, a page at a time as the stream is read. */
  public Stream<KeyValue<K, V>> scan() {
    return scan(null, null);
  }

  /**
   * The keys of a table view within the bounds [{@code from}, {@code to}] (either open when {@code
   * null}) and their values, in the server's order (by partition, then key as stored), a page at a
   * time as the stream is read; each page is a call of its own.
   */
  public Stream<KeyValue<K, V>> scan(@Nullable K from, @Nullable K to) {
    return Pages.stream(cursor -> page(from, to, cursor).value());
  }

  /**
   * The page of a scan of a table view within [{@code from}, {@code to}] that starts at {@code
   * cursor} (the first page when {@code null}), with the answer's metadata.
   */
  public Answer<Page<KeyValue<K, V>>> page(
      @Nullable K from, @Nullable K to, @Nullable String cursor) {
    return this.calls.keyPage(from, to, cursor, this.options);
  }

  /**
   * Every window of a windowed or session view whose start lies in [{@code from}, {@code to}], each
   * bound the server's default when {@code null}, a page at a time as the stream is read.
   */
  public Stream<KeyWindow<K, V>> scanWindows(@Nullable Instant from, @Nullable Instant to) {
    return Pages.stream(cursor -> windowPage(from, to, cursor).value());
  }

  /**
   * The page of a scan of a windowed or session view's windows that starts at {@code cursor} (the
   * first page when {@code null}), with the answer's metadata.
   */
  public Answer<Page<KeyWindow<K, V>>> windowPage(
      @Nullable Instant from, @Nullable Instant to, @Nullable String cursor) {
    return this.calls.windowPage(from, to, cursor, this.options);
  }

  /**
   * Every key of a table view and its value, read from one streamed response: see {@link
   * #stream(Object, Object)}.
   */
  public Stream<KeyValue<K, V>> stream() {
    return stream(null, null);
  }

  /**
   * The keys of a table view within the bounds [{@code from}, {@code to}] (either open when {@code
   * null}) and their values, in the order of {@link #scan(Object, Object)}, read from one response
   * ({@code application/x-ndjson}) a line at a time as the stream is read, rather than a call per
   * page: the body is never held whole, and a reader that falls behind slows the server down.
   *
   * <p>When the server stops early (a partition could not be read) or the response breaks off, the
   * stream asks again from right after the last item it received, with the cursor the server sent
   * or with that item's key ({@code afterKey}), so each item comes once. Each request retries a 503
   * or 429 within the handle's deadline, as other calls do; the deadline starts again whenever
   * items arrived since the request before, so it bounds the waits, not the reading of the stream.
   *
   * <p>Close the stream (try-with-resources) when not reading it to its end: that closes the
   * response. The first request is sent when the first item is asked for. A read timeout that
   * bounds a whole response, as the JDK's client has it ({@link MatviewClient#create(String)}: 30
   * s), breaks a longer one off, and the stream goes on in another request.
   */
  public Stream<KeyValue<K, V>> stream(@Nullable K from, @Nullable K to) {
    return this.calls.keyStream(from, to, this.options);
  }

  /**
   * Every window of a windowed or session view whose start lies in [{@code from}, {@code to}], each
   * bound the server's default when {@code null}, read from one streamed response as {@link
   * #stream(Object, Object)} reads a table's; after a response that breaks off, it asks again right
   * after the last window received ({@code afterKey} and {@code afterStart}). Close the stream
   * (try-with-resources) when not reading it to its end.
   */
  public Stream<KeyWindow<K, V>> streamWindows(@Nullable Instant from, @Nullable Instant to) {
    return this.calls.windowStream(from, to, this.options);
  }

  /**
   * A handle whose calls are answered only once the record a producer wrote, as its {@code
   * RecordMetadata} names it, is in the view (read your own writes).
   */
  public RemoteView<K, V> after(RecordMetadata record) {
    Objects.requireNonNull(record, "record must not be null");
    if (!record.hasOffset()) {
      throw new IllegalArgumentException(
          "The record's offset is unknown (a producer with acks=0 does not learn it)");
    }
    return after(new InputRecord(record.topic(), record.partition(), record.offset()));
  }

  /** A handle whose calls are answered only once {@code record} is in the view. */
  public RemoteView<K, V> after(InputRecord record) {
    return new RemoteView<>(this.calls, this.options.withAfter(record));
  }

  /** A handle whose calls ask {@code consistency} of the position. */
  public RemoteView<K, V> withConsistency(Consistency consistency) {
    return new RemoteView<>(this.calls, this.options.withConsistency(consistency));
  }

  /** A handle whose calls may take {@code deadline} each, retries included. */
  public RemoteView<K, V> withDeadline(Duration deadline) {
    return new RemoteView<>(this.calls, this.options.withDeadline(deadline));
  }

  /** A handle whose calls say whether a standby replica may answer ({@code allowStale}). */
  public RemoteView<K, V> withStaleReads(boolean allowed) {
    return new RemoteView<>(this.calls, this.options.withAllowStale(allowed));
  }

  /** A handle whose calls accept a standby at most {@code offsets} behind ({@code maxLag}). */
  public RemoteView<K, V> withMaxLag(long offsets) {
    return new RemoteView<>(this.calls, this.options.withMaxLag(offsets));
  }

  /** A handle whose scans ask for {@code pageSize} items per page ({@code limit}). */
  public RemoteView<K, V> withPageSize(int pageSize) {
    return new RemoteView<>(this.calls, this.options.withPageSize(pageSize));
  }

  @Override
  public String toString() {
    return "RemoteView[" + name() + ", " + this.options + "]";
  }

  private static <T> T requireKey(T key) {
    return Objects.requireNonNull(key, "key must not be null");
  }
}
