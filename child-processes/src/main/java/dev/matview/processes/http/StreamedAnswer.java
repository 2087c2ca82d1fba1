package dev.matview.processes.http;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodySubscriber;
import java.net.http.HttpResponse.BodySubscribers;
import java.net.http.HttpResponse.ResponseInfo;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;

/**
 * An answer of {@link HttpProbe#open} whose body the JDK client hands out line by line as it
 * arrives, as fast as the server sends it, with no thread of the test's waiting for it; a test
 * takes the lines one at a time, each within a bound. Closing it aborts the exchange and closes its
 * connection, as a client that goes away does.
 */
public final class StreamedAnswer implements BodyLines {

  /** Queued once the body has ended. */
  private static final Object END = new Object();

  private final String request;

  /** The body's lines, then {@link #END} or the failure that cut it off. */
  private final BlockingQueue<Object> lines = new LinkedBlockingQueue<>();

  private final CompletableFuture<ResponseInfo> head = new CompletableFuture<>();

  private final CompletableFuture<HttpResponse<Void>> exchange;

  private volatile Flow.@Nullable Subscription subscription;

  private volatile boolean closed;

  private boolean ended;

  private StreamedAnswer(HttpClient client, HttpRequest request) {
    this.request = request.method() + " " + request.uri();
    this.exchange = client.sendAsync(request, this::subscriber);
    this.exchange.whenComplete(
        (response, failure) -> {
          if (failure != null) {
            this.head.completeExceptionally(failure);
            this.lines.add(failure);
          }
        });
  }

  /**
   * Sends {@code request} and waits at most {@code timeout} for the answer's status and headers.
   */
  static StreamedAnswer open(HttpClient client, HttpRequest request, Duration timeout) {
    StreamedAnswer answer = new StreamedAnswer(client, request);
    try {
      answer.head.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return answer;
    } catch (TimeoutException ex) {
      answer.close();
      throw answer.failed(new HttpTimeoutException("No answer within " + timeout));
    } catch (InterruptedException ex) {
      answer.close();
      Thread.currentThread().interrupt();
      throw answer.failed(new InterruptedIOException("Interrupted while waiting for the answer"));
    } catch (ExecutionException ex) {
      throw answer.failed(ex.getCause());
    }
  }

  @Override
  public int status() {
    return this.head.join().statusCode();
  }

  /** The answer's headers. */
  public HttpHeaders headers() {
    return ReceivedHeaders.of(this.head.join().headers());
  }

  /** The first value of the header {@code name}, or an empty string when there is none. */
  public String header(String name) {
    String value = headers().getFirst(name);
    return (value != null) ? value : "";
  }

  @Override
  public @Nullable String next(Duration bound) throws InterruptedException {
    if (this.ended) {
      return null;
    }
    Object next = this.lines.poll(bound.toNanos(), TimeUnit.NANOSECONDS);
    if (next == null) {
      throw new IllegalStateException("No line within " + bound + " of " + this.request);
    }
    if (next instanceof String line) {
      return line;
    }
    this.ended = true;
    if (next instanceof Throwable failure) {
      throw failed(failure);
    }
    return null;
  }

  /**
   * The rest of the body, its lines joined by line breaks, such as the problem detail of a refused
   * stream; waiting at most {@code bound} for each line.
   */
  public String rest(Duration bound) throws InterruptedException {
    List<String> rest = new ArrayList<>();
    for (String line = next(bound); line != null; line = next(bound)) {
      rest.add(line);
    }
    return String.join("\n", rest);
  }

  /** Goes away from the answer: the exchange is aborted and its connection closed. */
  @Override
  public void close() {
    this.closed = true;
    Flow.Subscription taken = this.subscription;
    if (taken != null) {
      taken.cancel();
    }
    this.exchange.cancel(true);
  }

  private BodySubscriber<Void> subscriber(ResponseInfo info) {
    this.head.complete(info);
    return BodySubscribers.fromLineSubscriber(
        new Lines(),
        lines -> null,
        ReceivedHeaders.charset(ReceivedHeaders.of(info.headers())),
        null);
  }

  private UncheckedIOException failed(@Nullable Throwable cause) {
    IOException io = (cause instanceof IOException found) ? found : new IOException(cause);
    return new UncheckedIOException(this.request + " failed", io);
  }

  /** Queues each line as the client hands it out, asking for all of them. */
  private final class Lines implements Flow.Subscriber<String> {

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      StreamedAnswer.this.subscription = subscription;
      if (StreamedAnswer.this.closed) {
        subscription.cancel();
      } else {
        subscription.request(Long.MAX_VALUE);
      }
    }

    @Override
    public void onNext(String line) {
      StreamedAnswer.this.lines.add(line);
    }

    @Override
    public void onError(Throwable failure) {
      StreamedAnswer.this.lines.add(failure);
    }

    @Override
    public void onComplete() {
      StreamedAnswer.this.lines.add(END);
    }
  }
}
