package dev.matview.processes.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * HTTP written straight onto a socket, for the tests that are about what goes over the socket
 * rather than about an answer, which {@link HttpProbe} gets for every other test. It is raw because
 * no client library does what these tests need: {@link #send} writes a request exactly as given,
 * bytes the JDK client refuses included (raw control characters, bad percent-escapes, any method, a
 * fuzzer's damage), one connection per request, writing a large body while it reads the answer so
 * that a server that answers before it reads the whole request is heard; {@link #open} asks for a
 * streamed answer over HTTP/1.0 on a socket whose receive buffer the test sizes and which it reads
 * when it likes, or not at all, or closes without a word: a client that stops reading, and
 * thousands of open streams that hold no client library's thread or buffer.
 */
public final class RawHttp {

  private static final int STREAMED_BODY = 64 * 1024;

  private final int port;

  private final Duration timeout;

  /** Requests to {@code 127.0.0.1:port}, each connect and read waiting at most {@code timeout}. */
  public RawHttp(int port, Duration timeout) {
    this.port = port;
    this.timeout = timeout;
  }

  /** Sends {@code method target} with {@code headers} and an optional body. */
  public Answer send(String method, String target, Map<String, String> headers, byte[] body) {
    return send(method, target, headers, body, false);
  }

  /**
   * Sends the request; with {@code chunked} the body goes in 64 KB chunks without a length.
   *
   * @throws AssertionError when the server does not answer within the timeout
   */
  public Answer send(
      String method, String target, Map<String, String> headers, byte[] body, boolean chunked) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", this.port), (int) this.timeout.toMillis());
      socket.setSoTimeout((int) this.timeout.toMillis());
      StringBuilder head = new StringBuilder();
      head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
      head.append("Host: 127.0.0.1:").append(this.port).append("\r\n");
      head.append("Connection: close\r\n");
      headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
      if (chunked) {
        head.append("Transfer-Encoding: chunked\r\n");
      } else if (body.length > 0 && !headers.containsKey("Content-Length")) {
        head.append("Content-Length: ").append(body.length).append("\r\n");
      }
      head.append("\r\n");
      OutputStream out = socket.getOutputStream();
      @Nullable IOException writeFailure = null;
      @Nullable Thread writer = null;
      try {
        out.write(head.toString().getBytes(StandardCharsets.UTF_8));
        if (body.length > STREAMED_BODY || chunked) {
          writer = new Thread(() -> writeQuietly(out, body, chunked), "raw-http-body");
          writer.setDaemon(true);
          writer.start();
        } else {
          out.write(body);
          out.flush();
        }
      } catch (IOException ex) {
        writeFailure = ex;
      }
      try {
        return read(socket.getInputStream(), method.equals("HEAD"));
      } catch (IOException ex) {
        if (writeFailure != null) {
          ex.addSuppressed(writeFailure);
        }
        throw ex;
      } finally {
        socket.close();
        if (writer != null) {
          writer.join(this.timeout.toMillis());
        }
      }
    } catch (SocketTimeoutException ex) {
      throw new AssertionError(
          "No answer within " + this.timeout.toMillis() + " ms to " + method + " " + target, ex);
    } catch (IOException ex) {
      return Answer.broken(ex);
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(ex);
    }
  }

  /**
   * Asks for {@code target} over HTTP/1.0, so that the body comes as the server writes it until it
   * closes the connection, on a socket that receives at most about {@code receiveBuffer} bytes
   * ahead of the reader (the system's default when 0), and reads the answer's head.
   */
  public RawStream open(String target, Map<String, String> headers, int receiveBuffer) {
    return RawStream.open(this.port, this.timeout, target, headers, receiveBuffer);
  }

  private static void writeQuietly(OutputStream out, byte[] body, boolean chunked) {
    try {
      for (int offset = 0; offset < body.length; offset += STREAMED_BODY) {
        int length = Math.min(STREAMED_BODY, body.length - offset);
        if (chunked) {
          out.write((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }
        out.write(body, offset, length);
        if (chunked) {
          out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
      }
      if (chunked) {
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      }
      out.flush();
    } catch (IOException ex) {
      // The server answered and closed before it read the whole body, as it may.
    }
  }

  private static Answer read(InputStream in, boolean head) throws IOException {
    String statusLine = line(in);
    if (statusLine == null) {
      throw new IOException("The server closed the connection without an answer");
    }
    String[] parts = statusLine.split(" ", 3);
    int status = Integer.parseInt(parts[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (String line = line(in); line != null && !line.isEmpty(); line = line(in)) {
      int colon = line.indexOf(':');
      headers.merge(
          line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
          line.substring(colon + 1).trim(),
          (first, second) -> first + ", " + second);
    }
    byte[] body;
    if (head || status == 204 || status == 304 || status < 200) {
      body = new byte[0];
    } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      body = chunked(in);
    } else if (headers.containsKey("content-length")) {
      body = in.readNBytes(Integer.parseInt(headers.get("content-length")));
    } else {
      body = in.readAllBytes();
    }
    return new Answer(status, headers, body, null);
  }

  private static byte[] chunked(InputStream in) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      String size = line(in);
      if (size == null) {
        return body.toByteArray();
      }
      int length = Integer.parseInt(size.split(";")[0].trim(), 16);
      if (length == 0) {
        line(in);
        return body.toByteArray();
      }
      body.write(in.readNBytes(length));
      line(in);
    }
  }

  private static @Nullable String line(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int next;
    while ((next = in.read()) != -1) {
      if (next == '\n') {
        byte[] bytes = line.toByteArray();
        int length =
            bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
      }
      line.write(next);
    }
    return line.size() > 0 ? line.toString(StandardCharsets.UTF_8) : null;
  }

  /**
   * One answer: its status, headers (names in lower case) and body, or the I/O failure that ended
   * the exchange before an answer came.
   */
  public record Answer(
      int status, Map<String, String> headers, byte[] body, @Nullable IOException failure) {

    static Answer broken(IOException failure) {
      return new Answer(-1, Map.of(), new byte[0], failure);
    }

    /** The value of the header {@code name}, its lines joined by commas, or an empty string. */
    public String header(String name) {
      return this.headers.getOrDefault(name.toLowerCase(Locale.ROOT), "");
    }

    /** The body as UTF-8 text. */
    public String text() {
      return new String(this.body, StandardCharsets.UTF_8);
    }
  }
}
