package dev.matview.client;

import java.io.EOFException;
import java.io.IOException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.jspecify.annotations.Nullable;
import org.springframework.http.client.ClientHttpResponse;

/**
 * The items of a streamed scan, read from its open response one line at a time as they are asked
 * for. When the last line says the scan stopped early, it asks again at that line's cursor; when
 * the response breaks off or ends without a last line, it asks again right after the last item it
 * received. So each item comes once.
 *
 * <p>Each request retries a 503 or 429 as other calls do. A stop with a 503 or 429 problem waits
 * the problem's {@code Retry-After}; a response cut short after new items is asked again at once,
 * one with no new item after {@link RetryAfter#DEFAULT}. The scan fails when a wait would run past
 * the deadline, which starts with the first request and again at each interruption that follows new
 * items.
 *
 * @param <T> the type of the items
 */
final class StreamedScan<T> implements Iterator<T>, AutoCloseable {

  private final String view;

  private final ViewExchange exchange;

  private final CallOptions options;

  private final Requests<T> requests;

  private final Function<byte[], ScanLine<T>> lines;

  private @Nullable ClientHttpResponse response;

  private @Nullable BodyLines body;

  private @Nullable Deadline deadline;

  private @Nullable String cursor;

  private @Nullable T after;

  private boolean progressed;

  private boolean ended;

  private @Nullable T next;

  private StreamedScan(
      String view,
      ViewExchange exchange,
      CallOptions options,
      Requests<T> requests,
      Function<byte[], ScanLine<T>> lines) {
    this.view = view;
    this.exchange = exchange;
    this.options = options;
    this.requests = requests;
    this.lines = lines;
  }

  /**
   * A lazy, ordered stream of the items of the scan of {@code view} that {@code requests} asks for
   * and {@code lines} reads; closing it closes the response.
   */
  static <T> Stream<T> stream(
      String view,
      ViewExchange exchange,
      CallOptions options,
      Requests<T> requests,
      Function<byte[], ScanLine<T>> lines) {
    StreamedScan<T> scan = new StreamedScan<>(view, exchange, options, requests, lines);
    return StreamSupport.stream(
            Spliterators.spliteratorUnknownSize(scan, Spliterator.ORDERED | Spliterator.NONNULL),
            false)
        .onClose(scan::close);
  }

  @Override
  public boolean hasNext() {
    try {
      while (this.next == null && !this.ended) {
        this.next = read();
      }
    } catch (RuntimeException ex) {
      close();
      throw ex;
    }
    return this.next != null;
  }

  @Override
  public T next() {
    T item = hasNext() ? this.next : null;
    if (item == null) {
      throw new NoSuchElementException("The scan has no more items");
    }
    this.next = null;
    return item;
  }

  /** Ends the scan and closes its response without reading the rest of it. */
  @Override
  public void close() {
    this.ended = true;
    this.next = null;
    abortResponse();
  }

  /** The next item; {@code null} after a blank line, the last line or an interruption. */
  private @Nullable T read() {
    ScanLine<T> line;
    try {
      byte[] bytes = body().next();
      if (bytes == null) {
        throw new EOFException("The body ended without a last line");
      }
      if (bytes.length == 0) {
        return null;
      }
      line = this.lines.apply(bytes);
    } catch (IOException ex) {
      abortResponse();
      awaitResume(null, ex);
      return null;
    }
    T item = line.item();
    if (item != null) {
      this.after = item;
      this.cursor = null;
      this.progressed = true;
      return item;
    }
    releaseResponse();
    String nextCursor = line.nextCursor();
    if (nextCursor == null) {
      this.ended = true;
      return null;
    }
    this.cursor = nextCursor;
    this.after = null;
    awaitResume(line.problem(), null);
    return null;
  }

  /** The body of the open response, asking for one from where the scan stands when none is. */
  private BodyLines body() throws IOException {
    BodyLines open = this.body;
    if (open != null) {
      return open;
    }
    Deadline current = this.deadline;
    if (current == null) {
      current = Deadline.after(this.options.deadline());
      this.deadline = current;
    }
    ClientHttpResponse opened =
        this.exchange.open(
            this.view, this.requests.request(this.cursor, this.after), this.options, current);
    this.response = opened;
    this.progressed = false;
    open = new BodyLines(opened.getBody());
    this.body = open;
    return open;
  }

  /**
   * Waits before the scan asks again after a response that stopped early with {@code problem}, or
   * was {@code cut} short.
   */
  private void awaitResume(@Nullable RawAnswer problem, @Nullable IOException cut) {
    Deadline current = this.deadline;
    Deadline deadline =
        (this.progressed || current == null) ? Deadline.after(this.options.deadline()) : current;
    this.deadline = deadline;
    if (problem != null) {
      if (problem.status() != 503 && problem.status() != 429) {
        throw this.exchange.problems().refusal(this.view, problem);
      }
      this.exchange.awaitRetry(this.view, problem, deadline);
    } else if (!this.progressed) {
      if (!deadline.allows(RetryAfter.DEFAULT)) {
        throw new MatviewClientException(
            "A streamed scan of view '"
                + this.view
                + "' was cut short with no item since it was asked, and could not be asked again"
                + " within "
                + deadline.length()
                + ((cut != null) ? ": " + cut.getMessage() : ""),
            this.view,
            0,
            null,
            cut);
      }
      ViewExchange.pause(this.view, RetryAfter.DEFAULT);
    }
  }

  /** Closes the response whose last line was read, so that its connection may serve again. */
  private void releaseResponse() {
    ClientHttpResponse open = this.response;
    this.response = null;
    this.body = null;
    if (open != null) {
      open.close();
    }
  }

  /**
   * Closes the response's body before the response: Spring's {@code close()} of a response reads
   * what is left of its body to keep the connection, which here would be the rest of the scan.
   */
  private void abortResponse() {
    ClientHttpResponse open = this.response;
    if (open != null) {
      try {
        open.getBody().close();
      } catch (IOException ex) {
        // the response is closed next all the same
      }
    }
    releaseResponse();
  }

  /** Builds the request of a streamed scan that starts where it stands. */
  @FunctionalInterface
  interface Requests<T> {

    /**
     * The request that starts at {@code cursor}, or right after the item {@code after}, or at the
     * start when both are {@code null}.
     */
    ViewRequest request(@Nullable String cursor, @Nullable T after);
  }
}
