package dev.matview.peer.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.jspecify.annotations.Nullable;

/**
 * An HTTP/1.1 client for the requests instances send each other: each exchange runs on the calling
 * thread over a kept-alive connection to the other instance, so that a forwarded lookup costs two
 * socket writes and reads and no hand-over between threads. A request sent on a connection that the
 * other side closed while it was idle is sent once more on a new one.
 */
public final class PeerHttpClient implements AutoCloseable {

  private static final Duration MAX_IDLE = Duration.ofSeconds(15);

  private static final int MAX_IDLE_PER_INSTANCE = 256;

  private final PeerConnections connections;

  /**
   * A client that connects within {@code connectTimeout}, over TLS when {@code sslContext} is
   * given.
   */
  public PeerHttpClient(@Nullable SSLContext sslContext, Duration connectTimeout) {
    this.connections =
        new PeerConnections(sslContext, connectTimeout, MAX_IDLE, MAX_IDLE_PER_INSTANCE);
  }

  /**
   * Sends {@code method target} with {@code headers} and {@code body} to {@code host} at {@code
   * port} and reads the answer, all within {@code timeout}.
   *
   * @param target the request target, a path and query already percent-encoded
   * @param headers header names and values, none of them with a line break
   * @param body the body, sent with its {@code Content-Length}, or {@code null} for none
   * @throws java.net.ConnectException when the instance cannot be connected to
   * @throws SocketTimeoutException when the answer has not arrived within {@code timeout}
   * @throws IOException when the connection fails otherwise or the answer is not HTTP/1.1
   */
  public PeerHttpResponse exchange(
      String host,
      int port,
      String method,
      String target,
      Map<String, String> headers,
      byte @Nullable [] body,
      Duration timeout)
      throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String authority = authority(host, port);
    byte[] request = request(method, target, authority, headers, body);
    PeerConnection idle = this.connections.idle(authority, System.nanoTime());
    if (idle != null) {
      try {
        return exchange(authority, idle, request, method, deadline);
      } catch (SocketTimeoutException ex) {
        throw ex;
      } catch (IOException ex) {
        if (!idle.failedBeforeAnswerAfterReuse()) {
          throw ex;
        }
      }
    }
    PeerConnection fresh = this.connections.connect(unbracketed(host), port, deadline);
    return exchange(authority, fresh, request, method, deadline);
  }

  private PeerHttpResponse exchange(
      String authority, PeerConnection connection, byte[] request, String method, long deadline)
      throws IOException {
    ResponseReader.Read read;
    try {
      read = connection.exchange(request, method, deadline);
    } catch (IOException | RuntimeException ex) {
      connection.close();
      throw ex;
    }
    if (read.reusable()) {
      this.connections.release(authority, connection);
    } else {
      connection.close();
    }
    return read.response();
  }

  @Override
  public void close() {
    this.connections.close();
  }

  private static byte[] request(
      String method,
      String target,
      String authority,
      Map<String, String> headers,
      byte @Nullable [] body) {
    if (!isToken(method) || !isTarget(target)) {
      throw new IllegalArgumentException(
          "Not a request line HTTP/1.1 can carry: " + method + " " + target);
    }
    StringBuilder head = new StringBuilder(256);
    head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
    head.append("Host: ").append(authority).append("\r\n");
    for (Map.Entry<String, String> header : headers.entrySet()) {
      if (!isToken(header.getKey()) || !isFieldValue(header.getValue())) {
        throw new IllegalArgumentException(
            "Header '" + header.getKey() + "' has a name or value HTTP/1.1 cannot carry");
      }
      head.append(header.getKey()).append(": ").append(header.getValue()).append("\r\n");
    }
    if (body != null) {
      head.append("Content-Length: ").append(body.length).append("\r\n");
    }
    head.append("\r\n");
    byte[] bytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
    if (body == null || body.length == 0) {
      return bytes;
    }
    ByteArrayOutputStream request = new ByteArrayOutputStream(bytes.length + body.length);
    request.writeBytes(bytes);
    request.writeBytes(body);
    return request.toByteArray();
  }

  private static String authority(String host, int port) {
    boolean ipv6 = host.indexOf(':') >= 0 && !host.startsWith("[");
    return (ipv6 ? "[" + host + "]" : host) + ":" + port;
  }

  private static String unbracketed(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  /** Whether {@code text} is a non-empty HTTP token: visible ASCII without separators. */
  private static boolean isToken(String text) {
    if (text.isEmpty()) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c <= ' ' || c >= 127 || "\"(),/:;<=>?@[\\]{}".indexOf(c) >= 0) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code text} is an origin-form target: a path of visible ASCII, and its query. */
  private static boolean isTarget(String text) {
    if (!text.startsWith("/")) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c <= ' ' || c >= 127) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code text} is a field value: no control characters but tab. */
  private static boolean isFieldValue(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if ((c < ' ' && c != '\t') || c == 127 || c > 255) {
        return false;
      }
    }
    return true;
  }
}
