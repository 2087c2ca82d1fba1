package dev.matview.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A real HTTP server on the loopback for the client's tests (the JDK's): it answers each request
 * with the next reply queued, or the standing reply once the queue is empty, and keeps every
 * request as it came. Streamed answers can end without a last line, break off within a line, or be
 * held open.
 */
public final class StubServer implements AutoCloseable {

  private final HttpServer server;

  private final BlockingQueue<Response> replies = new LinkedBlockingQueue<>();

  private final List<Request> requests = new CopyOnWriteArrayList<>();

  private volatile Response standing =
      Reply.json(500, "{\"detail\": \"The stub has no reply queued\"}");

  private StubServer(HttpServer server) {
    this.server = server;
  }

  /** A server on a free port of 127.0.0.1, started. */
  public static StubServer start() {
    try {
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      StubServer stub = new StubServer(server);
      server.createContext("/", stub::handle);
      server.start();
      return stub;
    } catch (IOException ex) {
      throw new IllegalStateException("The stub server could not start", ex);
    }
  }

  /** Its URL, such as {@code http://127.0.0.1:40123}. */
  public String baseUrl() {
    return "http://127.0.0.1:" + this.server.getAddress().getPort();
  }

  /** Queues {@code reply} as the answer to the next request that no earlier reply answers. */
  public StubServer then(Response reply) {
    this.replies.add(reply);
    return this;
  }

  /** Answers every request with {@code reply} once the queue is empty. */
  public StubServer always(Response reply) {
    this.standing = reply;
    return this;
  }

  /** Every request so far, in the order they came. */
  public List<Request> requests() {
    return List.copyOf(this.requests);
  }

  /** The last request. */
  public Request lastRequest() {
    List<Request> all = requests();
    if (all.isEmpty()) {
      throw new AssertionError("The stub server was asked nothing");
    }
    return all.get(all.size() - 1);
  }

  @Override
  public void close() {
    this.server.stop(0);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange;
        InputStream in = exchange.getRequestBody()) {
      this.requests.add(
          new Request(
              exchange.getRequestMethod(),
              exchange.getRequestURI().getRawPath(),
              exchange.getRequestURI().getRawQuery(),
              exchange.getRequestHeaders().entrySet().stream()
                  .collect(
                      LinkedHashMap::new,
                      (map, entry) -> map.put(entry.getKey().toLowerCase(), entry.getValue()),
                      Map::putAll),
              new String(in.readAllBytes(), StandardCharsets.UTF_8)));
      Response reply = this.replies.poll();
      if (reply == null) {
        reply = this.standing;
      }
      reply.send(exchange);
    }
  }

  /** An answer the stub sends. */
  public interface Response {

    /** Sends this answer through {@code exchange}. */
    void send(HttpExchange exchange) throws IOException;
  }

  /**
   * One request as it came.
   *
   * @param method the method
   * @param rawPath the path, still percent-encoded
   * @param rawQuery the query string, still percent-encoded, or {@code null}
   * @param headers its headers, by lower-case name
   * @param body its body
   */
  public record Request(
      String method,
      String rawPath,
      String rawQuery,
      Map<String, List<String>> headers,
      String body) {

    /** The first value of the header {@code name}, or {@code null}. */
    public String header(String name) {
      List<String> values = this.headers.get(name.toLowerCase());
      return (values == null || values.isEmpty()) ? null : values.get(0);
    }

    /** The decoded values of the query parameter {@code name}, in order. */
    public List<String> params(String name) {
      List<String> values = new ArrayList<>();
      if (this.rawQuery == null) {
        return values;
      }
      for (String pair : this.rawQuery.split("&")) {
        String[] parts = pair.split("=", 2);
        if (decode(parts[0]).equals(name)) {
          values.add((parts.length > 1) ? decode(parts[1]) : "");
        }
      }
      return values;
    }

    /** The decoded segments of the path. */
    public List<String> pathSegments() {
      return Arrays.stream(this.rawPath.substring(1).split("/", -1))
          .map(segment -> URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8))
          .toList();
    }

    private static String decode(String text) {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }
  }

  /**
   * One answer to send.
   *
   * @param status its status
   * @param headers its headers
   * @param body its body
   */
  public record Reply(int status, Map<String, String> headers, String body) implements Response {

    /** A JSON answer. */
    public static Reply json(int status, String body) {
      return new Reply(status, Map.of("Content-Type", "application/json"), body);
    }

    /** A problem detail. */
    public static Reply problem(int status, String body) {
      return new Reply(status, Map.of("Content-Type", "application/problem+json"), body);
    }

    /** A 503 problem detail with {@code Retry-After: seconds}. */
    public static Reply unavailable(int status, long seconds) {
      return problem(
              status,
              """
              {"type": "https://matview.dev/problems/view-unavailable", "title": "View unavailable",
               "status": %d, "detail": "Partition 1 of view 'orders' is restoring",
               "view": "orders", "key": "alice", "partition": 1, "retryAfterSeconds": %d}"""
                  .formatted(status, seconds))
          .with("Retry-After", Long.toString(seconds));
    }

    /** This answer with the header {@code name} set to {@code value} as well. */
    public Reply with(String name, String value) {
      Map<String, String> headers = new LinkedHashMap<>(this.headers);
      headers.put(name, value);
      return new Reply(this.status, headers, this.body);
    }

    @Override
    public void send(HttpExchange exchange) throws IOException {
      byte[] bytes = this.body.getBytes(StandardCharsets.UTF_8);
      this.headers.forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
      exchange.sendResponseHeaders(this.status, (bytes.length == 0) ? -1 : bytes.length);
      if (bytes.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
    }
  }

  /**
   * A 200 of {@code application/x-ndjson} in chunks, its lines each ended by a {@code \n}; with a
   * {@code brokenOff} part of a line, the handler then fails, so that the server breaks the
   * connection off with the body unfinished.
   *
   * @param lines the whole lines
   * @param brokenOff the part of a line after which the connection breaks, or {@code null}
   */
  public record Lines(List<String> lines, String brokenOff) implements Response {

    /** The lines {@code lines}, ending as the body ends. */
    public static Lines of(String... lines) {
      return new Lines(List.of(lines), null);
    }

    /** These lines, then {@code part} of a line, after which the connection breaks. */
    public Lines thenBreakOff(String part) {
      return new Lines(this.lines, part);
    }

    @Override
    public void send(HttpExchange exchange) throws IOException {
      exchange.getResponseHeaders().add("Content-Type", "application/x-ndjson");
      exchange.sendResponseHeaders(200, 0);
      OutputStream out = exchange.getResponseBody();
      for (String line : this.lines) {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      }
      if (this.brokenOff != null) {
        out.write(this.brokenOff.getBytes(StandardCharsets.UTF_8));
        out.flush();
        throw new IOException("The stub breaks the connection off within a line");
      }
      out.close();
    }
  }

  /**
   * A 200 of {@code application/x-ndjson} that sends its lines, then holds the response open until
   * {@link #release() released}, and then writes on until the client has closed the connection.
   */
  public static final class HeldLines implements Response {

    private final List<String> lines;

    private final CountDownLatch released = new CountDownLatch(1);

    private volatile boolean closedByClient;

    private HeldLines(List<String> lines) {
      this.lines = lines;
    }

    /** Sends {@code lines}, then holds the response open. */
    public static HeldLines of(String... lines) {
      return new HeldLines(List.of(lines));
    }

    /** Lets the response go on, writing until the client's closed connection stops it. */
    public void release() {
      this.released.countDown();
    }

    /** Whether writing failed because the client closed the connection. */
    public boolean closedByClient() {
      return this.closedByClient;
    }

    @Override
    public void send(HttpExchange exchange) throws IOException {
      exchange.getResponseHeaders().add("Content-Type", "application/x-ndjson");
      exchange.sendResponseHeaders(200, 0);
      OutputStream out = exchange.getResponseBody();
      for (String line : this.lines) {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      }
      out.flush();
      try {
        if (!this.released.await(30, TimeUnit.SECONDS)) {
          return;
        }
        byte[] blank = new byte[8192];
        Arrays.fill(blank, (byte) '\n');
        for (int chunk = 0; chunk < 10_000; chunk++) {
          out.write(blank);
          out.flush();
        }
      } catch (IOException ex) {
        this.closedByClient = true;
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
