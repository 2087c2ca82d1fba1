package dev.matview.peer.http;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.jspecify.annotations.Nullable;

/**
 * The idle connections to each other instance, taken most recently used first, and new ones made
 * when none is idle; a connection idle for longer than {@code maxIdle} is closed rather than used.
 */
final class PeerConnections implements AutoCloseable {

  private final Map<String, Deque<PeerConnection>> idle = new ConcurrentHashMap<>();

  private final @Nullable SSLContext sslContext;

  private final long connectTimeoutNanos;

  private final long maxIdleNanos;

  private final int maxIdlePerInstance;

  private volatile boolean closed;

  PeerConnections(
      @Nullable SSLContext sslContext,
      Duration connectTimeout,
      Duration maxIdle,
      int maxIdlePerInstance) {
    this.sslContext = sslContext;
    this.connectTimeoutNanos = connectTimeout.toNanos();
    this.maxIdleNanos = maxIdle.toNanos();
    this.maxIdlePerInstance = maxIdlePerInstance;
  }

  /** An idle connection to {@code authority} that has not been idle for too long, or null. */
  @Nullable PeerConnection idle(String authority, long nowNanos) {
    Deque<PeerConnection> connections = this.idle.get(authority);
    if (connections == null) {
      return null;
    }
    PeerConnection connection = connections.pollFirst();
    while (connection != null && nowNanos - connection.idleSince() > this.maxIdleNanos) {
      connection.close();
      connection = connections.pollFirst();
    }
    return connection;
  }

  /**
   * A new connection to {@code host} at {@code port}, over TLS that checks the host's name when
   * this client has an SSL context, made by {@code deadlineNanos} at the latest.
   *
   * @throws ConnectException when the instance cannot be connected to in time
   */
  PeerConnection connect(String host, int port, long deadlineNanos) throws IOException {
    closeLongIdle(System.nanoTime());
    long connectBy = Math.min(deadlineNanos, System.nanoTime() + this.connectTimeoutNanos);
    Socket socket = new Socket();
    try {
      socket.setTcpNoDelay(true);
      socket.connect(new InetSocketAddress(host, port), PeerConnection.remainingMillis(connectBy));
      if (this.sslContext != null) {
        socket = handshake(this.sslContext, socket, host, port, connectBy);
      }
      return new PeerConnection(socket);
    } catch (SocketTimeoutException | UnknownHostException ex) {
      socket.close();
      ConnectException failure = new ConnectException("Could not connect: " + ex.getMessage());
      failure.initCause(ex);
      throw failure;
    } catch (IOException | RuntimeException ex) {
      socket.close();
      throw ex;
    }
  }

  /** Keeps {@code connection} to {@code authority} for later exchanges, or closes it. */
  void release(String authority, PeerConnection connection) {
    Deque<PeerConnection> connections =
        this.idle.computeIfAbsent(authority, (key) -> new ConcurrentLinkedDeque<>());
    connection.release(System.nanoTime());
    if (this.closed || connections.size() >= this.maxIdlePerInstance) {
      connection.close();
      return;
    }
    connections.offerFirst(connection);
    if (this.closed) {
      closeAll();
    }
  }

  @Override
  public void close() {
    this.closed = true;
    closeAll();
  }

  private void closeAll() {
    for (Deque<PeerConnection> connections : this.idle.values()) {
      for (PeerConnection connection = connections.pollFirst();
          connection != null;
          connection = connections.pollFirst()) {
        connection.close();
      }
    }
  }

  /** Closes the connections, to any instance, that have been idle for too long. */
  private void closeLongIdle(long nowNanos) {
    for (Deque<PeerConnection> connections : this.idle.values()) {
      PeerConnection oldest = connections.peekLast();
      while (oldest != null && nowNanos - oldest.idleSince() > this.maxIdleNanos) {
        if (connections.removeLastOccurrence(oldest)) {
          oldest.close();
        }
        oldest = connections.peekLast();
      }
    }
  }

  private static Socket handshake(
      SSLContext sslContext, Socket plain, String host, int port, long connectBy)
      throws IOException {
    SSLSocket socket =
        (SSLSocket) sslContext.getSocketFactory().createSocket(plain, host, port, true);
    SSLParameters parameters = socket.getSSLParameters();
    parameters.setEndpointIdentificationAlgorithm("HTTPS");
    socket.setSSLParameters(parameters);
    socket.setSoTimeout(PeerConnection.remainingMillis(connectBy));
    socket.startHandshake();
    return socket;
  }
}
