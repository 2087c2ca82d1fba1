package dev.matview.benchmarks.load;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One keep-alive HTTP/1.1 connection to 127.0.0.1 that sends GET requests and reads whole answers,
 * with as little work of its own as a client can do, so the server's cost dominates.
 */
final class HttpConnection implements AutoCloseable {

  private final int port;

  private final int timeoutMillis;

  private Socket socket;

  private InputStream in;

  private OutputStream out;

  HttpConnection(int port, int timeoutMillis) throws IOException {
    this.port = port;
    this.timeoutMillis = timeoutMillis;
    this.socket = open();
    this.in = new BufferedInputStream(this.socket.getInputStream(), 16 * 1024);
    this.out = this.socket.getOutputStream();
  }

  /** Sends {@code GET path} and returns the status code once the whole answer is read. */
  int get(byte[] request) throws IOException {
    try {
      return exchange(request);
    } catch (IOException ex) {
      reconnect();
      throw ex;
    }
  }

  /** The bytes of a GET request of {@code path}. */
  static byte[] request(String path) {
    return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  private int exchange(byte[] request) throws IOException {
    this.out.write(request);
    this.out.flush();
    String statusLine = line();
    int status = Integer.parseInt(statusLine.substring(9, 12));
    long length = -1;
    boolean chunked = false;
    boolean close = false;
    for (String header = line(); !header.isEmpty(); header = line()) {
      String lower = header.toLowerCase(java.util.Locale.ROOT);
      if (lower.startsWith("content-length:")) {
        length = Long.parseLong(lower.substring(15).trim());
      } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
        chunked = true;
      } else if (lower.startsWith("connection:") && lower.contains("close")) {
        close = true;
      }
    }
    if (chunked) {
      for (long size = Long.parseLong(line().trim(), 16); size > 0; ) {
        skip(size);
        line();
        size = Long.parseLong(line().trim(), 16);
      }
      line();
    } else if (length > 0) {
      skip(length);
    }
    if (close) {
      reconnect();
    }
    return status;
  }

  private String line() throws IOException {
    StringBuilder line = new StringBuilder(64);
    for (int next = this.in.read(); next != '\n'; next = this.in.read()) {
      if (next < 0) {
        throw new IOException("Connection closed by the server");
      }
      if (next != '\r') {
        line.append((char) next);
      }
    }
    return line.toString();
  }

  private void skip(long bytes) throws IOException {
    for (long left = bytes; left > 0; ) {
      long skipped = this.in.skip(left);
      if (skipped <= 0) {
        if (this.in.read() < 0) {
          throw new IOException("Connection closed by the server");
        }
        skipped = 1;
      }
      left -= skipped;
    }
  }

  private Socket open() throws IOException {
    Socket opened = new Socket();
    opened.setTcpNoDelay(true);
    opened.setSoTimeout(this.timeoutMillis);
    opened.connect(new InetSocketAddress("127.0.0.1", this.port), this.timeoutMillis);
    return opened;
  }

  private void reconnect() throws IOException {
    close();
    this.socket = open();
    this.in = new BufferedInputStream(this.socket.getInputStream(), 16 * 1024);
    this.out = this.socket.getOutputStream();
  }

  @Override
  public void close() {
    try {
      this.socket.close();
    } catch (IOException ex) {
      return;
    }
  }
}
