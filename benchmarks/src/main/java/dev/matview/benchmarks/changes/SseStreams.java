package dev.matview.benchmarks.changes;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodySubscribers;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
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

  /** How long a stream may wait for one of those opening to open before the opening fails. */
  private static final Duration OPENING_BOUND = Duration.ofSeconds(60);

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
   * threads; waits first while {@link #OPENING_AT_ONCE} others are still opening, at most {@link
   * #OPENING_BOUND}.
   */
  void open(String path, Consumer<SseEvent> events) throws InterruptedException {
    if (!this.opening.tryAcquire(OPENING_BOUND.toSeconds(), TimeUnit.SECONDS)) {
      throw new IllegalStateException(
          "No stream of "
              + OPENING_AT_ONCE
              + " opening at once had its first event within "
              + OPENING_BOUND.toSeconds()
              + " s, before "
              + path
              + " ("
              + this.started.get()
              + " open): the instance holds them without answering");
    }
    AtomicBoolean settled = new AtomicBoolean();
    start(
        path,
        (event) -> {
          if (settle(settled)) {
            this.started.incrementAndGet();
          }
          events.accept(event);
        },
        (failure) -> fail(settled, path + failure));
  }

  /**
   * Opens the stream at {@code path} without waiting for its first event, for a stream that may say
   * nothing for a while (a view's): the instance's gauge tells when it is open, and {@link
   * #failures()} when it could not open or ended.
   */
  void openQuiet(String path, Consumer<SseEvent> events) {
    start(path, events, (failure) -> this.failures.add(path + failure));
  }

  private void start(String path, Consumer<SseEvent> events, Consumer<String> failed) {
    SseLineSubscriber lines = new SseLineSubscriber(events);
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
                failed.accept(" answered " + info.statusCode());
                return BodySubscribers.discarding();
              }
              return BodySubscribers.fromLineSubscriber(lines);
            })
        .whenComplete((response, failure) -> failed.accept(" ended: " + failure));
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

  /** Streams that could not open, or (opened quietly) ended, each with why. */
  List<String> failures() {
    return List.copyOf(this.failures);
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
