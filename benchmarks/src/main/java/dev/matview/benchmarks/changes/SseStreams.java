package dev.matview.benchmarks.changes;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodySubscribers;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.awaitility.Awaitility;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * Change streams that one JDK HTTP client holds open through its asynchronous API: its selector
 * thread and a pool of two read every connection, so no stream has a thread of its own. At most
 * {@link #OPENING_AT_ONCE} streams open at once; a stream is open once its first event arrived.
 */
final class SseStreams implements AutoCloseable {

  /** Streams whose first event is awaited at once, so that opening does not grow Tomcat's pool. */
  static final int OPENING_AT_ONCE = 8;

  private final ExecutorService executor =
      Executors.newFixedThreadPool(2, daemonThreads("sse-client-"));

  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .executor(this.executor)
          .build();

  private final String baseUrl;

  private final Semaphore opening = new Semaphore(OPENING_AT_ONCE);

  private final Queue<SseLineSubscriber> streams = new ConcurrentLinkedQueue<>();

  private final AtomicInteger started = new AtomicInteger();

  private final Queue<String> failures = new ConcurrentLinkedQueue<>();

  /** Streams of the instance on {@code 127.0.0.1:port}. */
  SseStreams(int port) {
    this.baseUrl = "http://127.0.0.1:" + port;
  }

  /**
   * Opens the stream at {@code path}, handing each of its events to {@code events} on the client's
   * threads; waits first while {@link #OPENING_AT_ONCE} others are still opening.
   */
  void open(String path, Consumer<SseEvent> events) throws InterruptedException {
    this.opening.acquire();
    AtomicBoolean settled = new AtomicBoolean();
    SseLineSubscriber lines =
        new SseLineSubscriber(
            (event) -> {
              if (settle(settled)) {
                this.started.incrementAndGet();
              }
              events.accept(event);
            });
    this.streams.add(lines);
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(this.baseUrl + path))
            .header("Accept", "text/event-stream")
            .GET()
            .build();
    this.client
        .sendAsync(
            request,
            (info) -> {
              if (info.statusCode() != 200) {
                fail(settled, path + " answered " + info.statusCode());
                return BodySubscribers.discarding();
              }
              return BodySubscribers.fromLineSubscriber(lines);
            })
        .whenComplete(
            (response, failure) ->
                fail(settled, path + " ended before its first event: " + failure));
  }

  /**
   * Waits until {@code count} streams opened, at most {@code bound}.
   *
   * @throws IllegalStateException when a stream could not open
   */
  void awaitOpen(int count, Duration bound) {
    Awaitility.await(count + " change streams open")
        .atMost(bound)
        .pollInterval(Duration.ofMillis(50))
        .until(() -> this.started.get() + this.failures.size() >= count);
    if (!this.failures.isEmpty()) {
      throw new IllegalStateException(
          this.failures.size() + " streams did not open, first: " + this.failures.peek());
    }
  }

  /** How many streams have received their first event. */
  int open() {
    return this.started.get();
  }

  /** Closes every stream's connection. */
  @Override
  public void close() {
    this.streams.forEach(SseLineSubscriber::cancel);
    this.streams.clear();
    this.executor.shutdown();
  }

  private void fail(AtomicBoolean settled, String failure) {
    if (settle(settled)) {
      this.failures.add(failure);
    }
  }

  private boolean settle(AtomicBoolean settled) {
    if (settled.compareAndSet(false, true)) {
      this.opening.release();
      return true;
    }
    return false;
  }

  private static CustomizableThreadFactory daemonThreads(String prefix) {
    CustomizableThreadFactory threads = new CustomizableThreadFactory(prefix);
    threads.setDaemon(true);
    return threads;
  }
}
