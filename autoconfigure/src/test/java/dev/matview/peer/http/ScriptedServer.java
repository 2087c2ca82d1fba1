package dev.matview.peer.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/** A server that reads each request's head and body and writes the answer a test scripts. */
final class ScriptedServer implements AutoCloseable {

  /**
   * The bytes to answer a request with, {@code null} to answer nothing, or none to close the
   * connection without an answer.
   */
  @FunctionalInterface
  interface Answers {
    @Nullable String answer(String request);
  }

  private final ServerSocket socket;

  private final AtomicInteger connections = new AtomicInteger();

  private final AtomicInteger ended = new AtomicInteger();

  private final List<String> requests = new CopyOnWriteArrayList<>();

  private final List<Socket> open = new CopyOnWriteArrayList<>();

  ScriptedServer(ServerSocket socket, Answers answers, boolean closeAfterAnswer) {
    this.socket = socket;
    Thread acceptor =
        new Thread(
            () -> {
              while (!this.socket.isClosed()) {
                try {
                  Socket connection = this.socket.accept();
                  this.connections.incrementAndGet();
                  this.open.add(connection);
                  Thread serving =
                      new Thread(() -> serveConnection(connection, answers, closeAfterAnswer));
                  serving.setDaemon(true);
                  serving.start();
                } catch (IOException ex) {
                  return;
                }
              }
            });
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return this.socket.getLocalPort();
  }

  AtomicInteger connections() {
    return this.connections;
  }

  /** The connections that have ended, whichever side ended them. */
  AtomicInteger ended() {
    return this.ended;
  }

  List<String> requests() {
    return this.requests;
  }

  void closeOpenConnections() throws IOException {
    for (Socket connection : this.open) {
      connection.close();
    }
  }

  private void serveConnection(Socket connection, Answers answers, boolean closeAfterAnswer) {
    try (connection) {
      InputStream in = connection.getInputStream();
      OutputStream out = connection.getOutputStream();
      for (String request = readRequest(in); request != null; request = readRequest(in)) {
        this.requests.add(request);
        String answer = answers.answer(request);
        if (answer == null) {
          continue;
        }
        if (answer.isEmpty()) {
          return;
        }
        out.write(answer.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        if (closeAfterAnswer) {
          return;
        }
      }
    } catch (IOException ex) {
      // the client or the test closed the connection
    } finally {
      this.ended.incrementAndGet();
    }
  }

  private static @Nullable String readRequest(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0) {
      head.write(b);
      if (head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
        String text = head.toString(StandardCharsets.ISO_8859_1);
        int length = contentLength(text);
        return text + new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
      }
    }
    return null;
  }

  private static int contentLength(String head) {
    for (String line : head.split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        return Integer.parseInt(line.substring("content-length:".length()).strip());
      }
    }
    return 0;
  }

  @Override
  public void close() throws IOException {
    this.socket.close();
    closeOpenConnections();
  }
}
