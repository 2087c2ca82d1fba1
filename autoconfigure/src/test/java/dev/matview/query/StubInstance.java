package dev.matview.query;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Another instance, stubbed with the JDK's HTTP server: it records what it is asked and answers
 * with a set status, headers and body, or hangs until closed.
 */
final class StubInstance implements AutoCloseable {

  private final HttpServer server;

  private final CountDownLatch release = new CountDownLatch(1);

  private final List<Map<String, String>> received = new CopyOnWriteArrayList<>();

  private volatile int status = 200;

  private volatile String body = "{}";

  private volatile Map<String, String> headers = Map.of();

  private volatile boolean hanging;

  private volatile boolean dropping;

  StubInstance() {
    try {
      this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
    this.server.createContext(
        "/",
        exchange -> {
          this.received.add(
              Map.of(
                  "path", exchange.getRequestURI().toString(),
                  "forwarded",
                      String.valueOf(exchange.getRequestHeaders().getFirst("Matview-Forwarded")),
                  "authorization",
                      String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")),
                  "signature",
                      String.valueOf(exchange.getRequestHeaders().getFirst("Matview-Signature"))));
          if (this.hanging) {
            awaitRelease();
          }
          if (this.dropping) {
            exchange.close();
            return;
          }
          byte[] bytes = this.body.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          this.headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
          exchange.sendResponseHeaders(this.status, bytes.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
          }
        });
    this.server.setExecutor(Executors.newCachedThreadPool());
    this.server.start();
  }

  /** Answers every request with {@code status}, {@code headers} and {@code body}. */
  StubInstance answering(int status, Map<String, String> headers, String body) {
    this.status = status;
    this.headers = headers;
    this.body = body;
    return this;
  }

  /** Never answers, until closed. */
  StubInstance hanging() {
    this.hanging = true;
    return this;
  }

  /** Closes the connection of every request without an answer. */
  StubInstance closingWithoutAnswer() {
    this.dropping = true;
    return this;
  }

  /** The requests received: path, forwarded marker, authorization and signature of each. */
  List<Map<String, String>> received() {
    return this.received;
  }

  /** This instance as the owner of {@code partition}. */
  PartitionOwner owner(int partition) {
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
