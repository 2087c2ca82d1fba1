package dev.matview.query;

import com.sun.net.httpserver.HttpServer;
import dev.matview.peer.PeerRequests;
import dev.matview.query.answer.PartitionOwner;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;

/**
 * Another instance, stubbed with the JDK's HTTP server: it records what it is asked and answers
 * with a set status, headers and body, or hangs until closed.
 */
public final class StubInstance implements AutoCloseable {

  private final HttpServer server;

  private final CountDownLatch release = new CountDownLatch(1);

  /** What the names of the signed headers a request carried start with, in {@link #received}. */
  private static final String HEADER = "header:";

  private final List<Map<String, String>> received = new CopyOnWriteArrayList<>();

  private volatile int status = 200;

  private volatile String body = "{}";

  private volatile Map<String, String> headers = Map.of();

  private volatile boolean hanging;

  private volatile boolean dropping;

  private volatile @Nullable Integer postStatus;

  private volatile String postBody = "{}";

  private volatile boolean droppingPosts;

  public StubInstance() {
    try {
      this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
    this.server.createContext(
        "/",
        exchange -> {
          Map<String, String> request = new HashMap<>();
          request.put("method", exchange.getRequestMethod());
          request.put("path", exchange.getRequestURI().toString());
          request.put(
              "forwarded",
              String.valueOf(exchange.getRequestHeaders().getFirst("Matview-Forwarded")));
          request.put(
              "authorization",
              String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
          request.put(
              "signature",
              String.valueOf(exchange.getRequestHeaders().getFirst("Matview-Signature")));
          request.put(
              "traceparent", String.valueOf(exchange.getRequestHeaders().getFirst("traceparent")));
          for (String signed : PeerRequests.SIGNED_HEADERS) {
            String value = exchange.getRequestHeaders().getFirst(signed);
            if (value != null) {
              request.put(HEADER + signed, value);
            }
          }
          request.put(
              "body", new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          this.received.add(Map.copyOf(request));
          if (this.hanging) {
            awaitRelease();
          }
          boolean post = exchange.getRequestMethod().equals("POST");
          if (this.dropping || (post && this.droppingPosts)) {
            exchange.close();
            return;
          }
          Integer postStatus = this.postStatus;
          int status = (post && postStatus != null) ? postStatus : this.status;
          String body = (post && postStatus != null) ? this.postBody : this.body;
          byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          this.headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
          exchange.sendResponseHeaders(status, bytes.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
          }
        });
    this.server.setExecutor(Executors.newCachedThreadPool());
    this.server.start();
  }

  /** Answers every request with {@code status}, {@code headers} and {@code body}. */
  public StubInstance answering(int status, Map<String, String> headers, String body) {
    this.status = status;
    this.headers = headers;
    this.body = body;
    return this;
  }

  /** Answers every POST with {@code status} and {@code body}, and other requests as before. */
  public StubInstance answeringPosts(int status, String body) {
    this.postBody = body;
    this.postStatus = status;
    return this;
  }

  /** Closes the connection of every POST without an answer. */
  public StubInstance closingPostsWithoutAnswer() {
    this.droppingPosts = true;
    return this;
  }

  /** Answers the requests held by {@link #hanging()}, and every later one at once. */
  public void release() {
    this.hanging = false;
    this.release.countDown();
  }

  /** Never answers, until closed. */
  public StubInstance hanging() {
    this.hanging = true;
    return this;
  }

  /** Closes the connection of every request without an answer. */
  public StubInstance closingWithoutAnswer() {
    this.dropping = true;
    return this;
  }

  /**
   * Whether {@code request}, one of those {@link #received}, carries a valid signature by {@code
   * requests} over its method, path and signed headers.
   */
  public static boolean signedBy(PeerRequests requests, Map<String, String> request) {
    return requests
        .check(
            request.get("method"),
            request.get("path"),
            request.get("signature"),
            (name) -> request.get(HEADER + name))
        .valid();
  }

  /**
   * The requests received: path, forwarded marker, authorization, signature and trace context
   * ({@code traceparent}) of each.
   */
  public List<Map<String, String>> received() {
    return this.received;
  }

  /** This instance as the owner of {@code partition}. */
  public PartitionOwner owner(int partition) {
    return new PartitionOwner(
        partition, new HostInfo("127.0.0.1", this.server.getAddress().getPort()));
  }

  @Override
  public void close() {
    this.release.countDown();
    this.server.stop(0);
  }

  private void awaitRelease() {
    try {
      this.release.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
    }
  }
}
