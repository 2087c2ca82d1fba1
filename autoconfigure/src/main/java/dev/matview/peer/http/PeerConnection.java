package dev.matview.peer.http;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;

/** One kept-alive connection to another instance, used by one exchange at a time. */
final class PeerConnection implements AutoCloseable {

  private final Socket socket;

  private final OutputStream out;

  private final ResponseReader reader;

  private long idleSince;

  private boolean reused;

  PeerConnection(Socket socket) throws IOException {
    this.socket = socket;
    this.out = socket.getOutputStream();
    this.reader = new ResponseReader(socket);
  }

  /**
   * Sends {@code request} and reads the answer to it, failing with {@link SocketTimeoutException}
   * when the answer has not ended by {@code deadlineNanos} (of {@link System#nanoTime()}).
   */
  ResponseReader.Read exchange(byte[] request, String method, long deadlineNanos)
      throws IOException {
    this.out.write(request);
    this.out.flush();
    return this.reader.read(method, deadlineNanos);
  }

  /**
   * Whether a failure of the last exchange happened before the other side answered anything on a
   * connection that had served before: the other side most likely closed it while it was idle, so
   * the request can be sent again on a new connection.
   */
  boolean failedBeforeAnswerAfterReuse() {
    return this.reused && !this.reader.started();
  }

  /** Marks the connection idle from now on, to be used again. */
  void release(long nowNanos) {
    this.idleSince = nowNanos;
    this.reused = true;
  }

  /** When the connection last became idle, in {@link System#nanoTime()}. */
  long idleSince() {
    return this.idleSince;
  }

  /** Whether this connection has been closed. */
  boolean isClosed() {
    return this.socket.isClosed();
  }

  @Override
  public void close() {
    try {
      this.socket.close();
    } catch (IOException ex) {
      // closing a connection that is no longer wanted; nothing is lost
    }
  }

  /** The milliseconds left until {@code deadlineNanos}, at least 1, as a socket timeout takes. */
  static int remainingMillis(long deadlineNanos) throws SocketTimeoutException {
    long remaining = deadlineNanos - System.nanoTime();
    if (remaining <= 0) {
      throw new SocketTimeoutException("The answer did not arrive in time");
    }
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, remaining / 1_000_000));
  }
}
