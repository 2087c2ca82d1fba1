package dev.matview.cluster;

import dev.matview.processes.http.ServerSentEvent;
import dev.matview.processes.http.ServerSentEventLines;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * A change stream read straight off a socket over HTTP/1.0 (no chunks), so that a test decides when
 * it reads, whether it reads at all, and how it goes away.
 */
final class RawEventStream implements AutoCloseable {

  private final Socket socket;

  private final BufferedReader reader;

  private final int status;

  private final ServerSentEventLines events = new ServerSentEventLines();

  private RawEventStream(Socket socket) throws IOException {
    this.socket = socket;
    this.reader =
        new BufferedReader(
            new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8), 1024);
    String statusLine = this.reader.readLine();
    if (statusLine == null) {
      throw new IOException("The server closed the connection before it answered");
    }
    this.status = Integer.parseInt(statusLine.split(" ")[1]);
    String header = this.reader.readLine();
    while (header != null && !header.isEmpty()) {
      header = this.reader.readLine();
    }
  }

  /**
   * Asks {@code localhost:port} for the stream at {@code path}, with a socket that receives at most
   * about {@code receiveBuffer} bytes ahead of the reader, and reads the answer's head.
   */
  static RawEventStream open(int port, String path, int receiveBuffer) throws IOException {
    Socket socket = new Socket();
    try {
      socket.setReceiveBufferSize(receiveBuffer);
      socket.connect(new InetSocketAddress("localhost", port), 5_000);
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("GET " + path + " HTTP/1.0\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      return new RawEventStream(socket);
    } catch (IOException | RuntimeException ex) {
      socket.close();
      throw ex;
    }
  }

  /** The answer's HTTP status. */
  int status() {
    return this.status;
  }

  /** The rest of an answer that is not a stream, such as a problem detail. */
  String body() throws IOException {
    StringBuilder body = new StringBuilder();
    for (String line = this.reader.readLine(); line != null; line = this.reader.readLine()) {
      body.append(line).append('\n');
    }
    return body.toString();
  }

  /** The next event, or {@code null} once the server has ended the stream. */
  @Nullable ServerSentEvent next() throws IOException {
    for (String line = this.reader.readLine(); line != null; line = this.reader.readLine()) {
      ServerSentEvent event = this.events.line(line);
      if (event != null) {
        return event;
      }
    }
    return null;
  }

  /** Goes away without a word: the socket is closed. */
  @Override
  public void close() {
    try {
      this.socket.close();
    } catch (IOException ex) {
      // already gone
    }
  }
}
