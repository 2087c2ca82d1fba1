package dev.matview.jetty;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A change stream read line by line from its own socket, as a browser's EventSource reads it. */
final class EventStream implements AutoCloseable {

  private final Socket socket;

  private final BufferedReader lines;

  EventStream(int port, String target) {
    try {
      this.socket = new Socket("127.0.0.1", port);
      this.socket.setSoTimeout(30_000);
      String request =
          "GET " + target + " HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n";
      this.socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      this.lines =
          new BufferedReader(
              new InputStreamReader(this.socket.getInputStream(), StandardCharsets.UTF_8));
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  /** The {@code data:} of the next event, the response's head and comments skipped. */
  String nextData() {
    try {
      for (String line = this.lines.readLine(); line != null; line = this.lines.readLine()) {
        if (line.startsWith("data:")) {
          return line.substring("data:".length());
        }
      }
      throw new IllegalStateException("The stream ended before its next event");
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  @Override
  public void close() throws IOException {
    this.socket.close();
  }
}
