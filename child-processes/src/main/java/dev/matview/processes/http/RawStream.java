package dev.matview.processes.http;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A streamed answer of {@link RawHttp#open}, read straight off its socket: the test decides when it
 * reads, whether it reads at all, and how it goes away.
 */
public final class RawStream implements BodyLines {

  private final Socket socket;

  private final Duration timeout;

  /** Reads little ahead, so that what the test has not read stays in the socket's buffers. */
  private final BufferedReader reader;

  private final int status;

  private RawStream(Socket socket, Duration timeout) throws IOException {
    this.socket = socket;
    this.timeout = timeout;
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

  static RawStream open(
      int port, Duration timeout, String target, Map<String, String> headers, int receiveBuffer) {
    Socket socket = new Socket();
    try {
      if (receiveBuffer > 0) {
        socket.setReceiveBufferSize(receiveBuffer);
      }
      socket.connect(new InetSocketAddress("localhost", port), (int) timeout.toMillis());
      socket.setSoTimeout((int) timeout.toMillis());
      StringBuilder request = new StringBuilder("GET ").append(target).append(" HTTP/1.0\r\n");
      request.append("Host: localhost\r\n");
      headers.forEach(
          (name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
      request.append("\r\n");
      OutputStream out = socket.getOutputStream();
      out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      return new RawStream(socket, timeout);
    } catch (IOException ex) {
      closeQuietly(socket);
      throw new UncheckedIOException("GET " + target + " on port " + port + " failed", ex);
    } catch (RuntimeException ex) {
      closeQuietly(socket);
      throw ex;
    }
  }

  @Override
  public int status() {
    return this.status;
  }

  @Override
  public @Nullable String next(Duration bound) {
    try {
      this.socket.setSoTimeout((int) Math.max(1, bound.toMillis()));
      return this.reader.readLine();
    } catch (SocketTimeoutException ex) {
      throw new IllegalStateException("No line within " + bound, ex);
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  /** The rest of the body as it came, until the server closes the connection. */
  public String rest() {
    try {
      this.socket.setSoTimeout((int) this.timeout.toMillis());
      StringWriter rest = new StringWriter();
      this.reader.transferTo(rest);
      return rest.toString();
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  /** Goes away without a word: the socket is closed. */
  @Override
  public void close() {
    closeQuietly(this.socket);
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ex) {
      // already gone
    }
  }
}
