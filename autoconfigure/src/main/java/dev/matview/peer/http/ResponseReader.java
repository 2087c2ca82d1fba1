package dev.matview.peer.http;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ProtocolException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads HTTP/1.1 responses from one connection, through a buffer of its own: the status line, the
 * headers and a body framed by {@code Content-Length}, by chunks, or by the end of the connection.
 */
final class ResponseReader {

  /** The most bytes the status line and headers of one response may take. */
  static final int MAX_HEAD_BYTES = 64 * 1024;

  /** The most bytes the body of one response may take, so a broken answer cannot fill the heap. */
  static final int MAX_BODY_BYTES = 64 * 1024 * 1024;

  private static final byte[] EMPTY = new byte[0];

  private final Socket socket;

  private final InputStream in;

  private final byte[] buffer = new byte[8192];

  private int position;

  private int limit;

  private byte[] line = new byte[256];

  private int headBytes;

  private boolean started;

  private long deadlineNanos;

  ResponseReader(Socket socket) throws IOException {
    this.socket = socket;
    this.in = socket.getInputStream();
  }

  /** A response read to its end, and whether the connection may carry another exchange. */
  record Read(PeerHttpResponse response, boolean reusable) {}

  /**
   * Reads the response to a request with {@code method}, skipping interim (1xx) responses.
   *
   * @throws java.net.SocketTimeoutException when the response has not ended by {@code
   *     deadlineNanos}, of {@link System#nanoTime()}
   * @throws EOFException when the connection ends before the response does
   * @throws ProtocolException when what arrives is not an HTTP/1.1 response
   */
  Read read(String method, long deadlineNanos) throws IOException {
    this.deadlineNanos = deadlineNanos;
    this.headBytes = 0;
    this.started = false;
    int status;
    Map<String, List<String>> headers;
    do {
      status = status(readLine());
      headers = headers();
    } while (status >= 100 && status < 200);
    boolean reusable = !hasToken(headers, "connection", "close");
    byte[] body;
    if ("HEAD".equals(method) || status == 204 || status == 304) {
      body = EMPTY;
    } else if (hasToken(headers, "transfer-encoding", "chunked")) {
      body = chunked();
    } else {
      String length = PeerHttpResponse.first(headers, "content-length");
      if (length != null) {
        body = readBytes(contentLength(length));
      } else {
        body = readToEnd();
        reusable = false;
      }
    }
    return new Read(new PeerHttpResponse(status, headers, body), reusable);
  }

  /** Whether any byte of the response being read has arrived. */
  boolean started() {
    return this.started;
  }

  private static int status(String statusLine) throws ProtocolException {
    if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12) {
      throw new ProtocolException("Not an HTTP/1.1 status line: " + abbreviated(statusLine));
    }
    try {
      return Integer.parseInt(statusLine, 9, 12, 10);
    } catch (NumberFormatException ex) {
      throw new ProtocolException("Not an HTTP status: " + abbreviated(statusLine));
    }
  }

  private Map<String, List<String>> headers() throws IOException {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    for (String header = readLine(); !header.isEmpty(); header = readLine()) {
      int colon = header.indexOf(':');
      if (colon <= 0) {
        throw new ProtocolException("Not an HTTP header: " + abbreviated(header));
      }
      headers
          .computeIfAbsent(header.substring(0, colon), (name) -> new ArrayList<>(1))
          .add(header.substring(colon + 1).strip());
    }
    return headers;
  }

  private byte[] chunked() throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (int size = chunkSize(nextLine()); size > 0; size = chunkSize(nextLine())) {
      checkBodySize((long) body.size() + size);
      body.write(readBytes(size));
      if (!readLine().isEmpty()) {
        throw new ProtocolException("A chunk is longer than its size");
      }
    }
    skipTrailers();
    return body.toByteArray();
  }

  private void skipTrailers() throws IOException {
    String trailer = nextLine();
    while (!trailer.isEmpty()) {
      trailer = readLine();
    }
  }

  /** Reads a line of a body's framing, which counts afresh against the head's limit. */
  private String nextLine() throws IOException {
    this.headBytes = 0;
    return readLine();
  }

  private static int chunkSize(String sizeLine) throws ProtocolException {
    int end = sizeLine.indexOf(';');
    String hex = (end < 0 ? sizeLine : sizeLine.substring(0, end)).strip();
    long size;
    try {
      size = Long.parseUnsignedLong(hex, 16);
    } catch (NumberFormatException ex) {
      throw new ProtocolException("Not a chunk size: " + abbreviated(sizeLine));
    }
    checkBodySize(size);
    return (int) size;
  }

  private static int contentLength(String value) throws ProtocolException {
    long length;
    try {
      length = Long.parseUnsignedLong(value.strip());
    } catch (NumberFormatException ex) {
      throw new ProtocolException("Not a Content-Length: " + abbreviated(value));
    }
    checkBodySize(length);
    return (int) length;
  }

  private static void checkBodySize(long size) throws ProtocolException {
    if (size < 0 || size > MAX_BODY_BYTES) {
      throw new ProtocolException("A response's body is longer than " + MAX_BODY_BYTES + " bytes");
    }
  }

  /** Reads a line up to LF, without it and a CR before it, in ISO-8859-1. */
  private String readLine() throws IOException {
    int length = 0;
    while (true) {
      if (this.position == this.limit && !fill()) {
        throw new EOFException(
            this.started
                ? "The connection ended inside a response's head"
                : "The connection ended before a response");
      }
      byte b = this.buffer[this.position++];
      if (b == '\n') {
        break;
      }
      if (++this.headBytes > MAX_HEAD_BYTES) {
        throw new ProtocolException(
            "A response's head is longer than " + MAX_HEAD_BYTES + " bytes");
      }
      if (length == this.line.length) {
        this.line = Arrays.copyOf(this.line, length * 2);
      }
      this.line[length++] = b;
    }
    if (length > 0 && this.line[length - 1] == '\r') {
      length--;
    }
    return new String(this.line, 0, length, StandardCharsets.ISO_8859_1);
  }

  private byte[] readBytes(int count) throws IOException {
    byte[] bytes = new byte[count];
    int buffered = Math.min(count, this.limit - this.position);
    System.arraycopy(this.buffer, this.position, bytes, 0, buffered);
    this.position += buffered;
    int read = buffered;
    while (read < count) {
      this.socket.setSoTimeout(PeerConnection.remainingMillis(this.deadlineNanos));
      int n = this.in.read(bytes, read, count - read);
      if (n < 0) {
        throw new EOFException("The connection ended inside a response's body");
      }
      read += n;
    }
    return bytes;
  }

  private byte[] readToEnd() throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.write(this.buffer, this.position, this.limit - this.position);
    this.position = this.limit;
    while (fill()) {
      checkBodySize((long) body.size() + this.limit);
      body.write(this.buffer, 0, this.limit);
      this.position = this.limit;
    }
    return body.toByteArray();
  }

  private boolean fill() throws IOException {
    this.socket.setSoTimeout(PeerConnection.remainingMillis(this.deadlineNanos));
    int n = this.in.read(this.buffer);
    if (n <= 0) {
      return false;
    }
    this.started = true;
    this.position = 0;
    this.limit = n;
    return true;
  }

  private static boolean hasToken(Map<String, List<String>> headers, String name, String token) {
    for (Map.Entry<String, List<String>> header : headers.entrySet()) {
      if (header.getKey().equalsIgnoreCase(name)) {
        for (String value : header.getValue()) {
          for (String part : value.split(",")) {
            if (part.strip().equalsIgnoreCase(token)) {
              return true;
            }
          }
        }
      }
    }
    return false;
  }

  private static String abbreviated(String text) {
    return text.length() <= 80 ? text : text.substring(0, 80) + "...";
  }
}
