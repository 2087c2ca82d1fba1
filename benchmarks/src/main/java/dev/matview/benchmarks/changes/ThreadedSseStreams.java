package dev.matview.benchmarks.changes;

import dev.matview.processes.http.ServerSentEvent;
import dev.matview.processes.http.ServerSentEventLines;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Change streams each read by a thread of its own over a blocking socket, with a large read buffer:
 * for the few streams of a whole view, each of which carries every update, where the JDK client's
 * selector and pool cost more per event than the instance's writing does. The body comes over
 * HTTP/1.0, as the server writes it, until it closes the connection.
 */
final class ThreadedSseStreams implements AutoCloseable {

  private static final int READ_BUFFER = 64 * 1024;

  private static final int CONNECT_TIMEOUT_MILLIS = 10_000;

  private final int port;

  private final Queue<Socket> sockets = new ConcurrentLinkedQueue<>();

  private final Queue<String> failures = new ConcurrentLinkedQueue<>();

  private final AtomicInteger readers = new AtomicInteger();

  private volatile boolean closed;

  /** Streams of the instance on {@code 127.0.0.1:port}. */
  ThreadedSseStreams(int port) {
    this.port = port;
  }

  /**
   * Opens the stream at {@code path} on a thread of its own, handing each of its events to {@code
   * events} there; {@link #failures()} tells when it could not open or ended.
   */
  void openQuiet(String path, Consumer<SseEvent> events) {
    Thread reader =
        new Thread(() -> read(path, events), "sse-client-view-" + this.readers.incrementAndGet());
    reader.setDaemon(true);
    reader.start();
  }

  private void read(String path, Consumer<SseEvent> events) {
    Socket socket = new Socket();
    this.sockets.add(socket);
    try (socket) {
      socket.connect(new InetSocketAddress("127.0.0.1", this.port), CONNECT_TIMEOUT_MILLIS);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
              .getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      BufferedReader in =
          new BufferedReader(
              new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8), READ_BUFFER);
      String status = in.readLine();
      if (status == null || !status.matches("HTTP/1\\.[01] 200.*")) {
        this.failures.add(path + " answered " + status);
        return;
      }
      for (String header = in.readLine(); header != null && !header.isEmpty(); ) {
        header = in.readLine();
      }
      ServerSentEventLines lines = new ServerSentEventLines();
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        ServerSentEvent event = lines.line(line);
        if (event != null) {
          events.accept(new SseEvent(event.name(), event.id(), event.data(), System.nanoTime()));
        }
      }
      if (!this.closed) {
        this.failures.add(path + " ended: the server closed the connection");
      }
    } catch (IOException ex) {
      if (!this.closed) {
        this.failures.add(path + " ended: " + ex);
      }
    }
  }

  /** Streams that could not open, or ended, each with why. */
  List<String> failures() {
    return List.copyOf(this.failures);
  }

  /** Closes every stream's connection, which ends its thread. */
  @Override
  public void close() {
    this.closed = true;
    for (Socket socket : this.sockets) {
      try {
        socket.close();
      } catch (IOException ex) {
        // closing is all that is wanted of it
      }
    }
    this.sockets.clear();
  }
}
