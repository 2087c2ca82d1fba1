package dev.matview.peer.http;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.http.HttpException;

/**
 * What the peers' client does for each exchange: name hosts, tell failures and make its threads.
 */
final class Exchanges {

  private static final AtomicInteger ioThreadCount = new AtomicInteger();

  private Exchanges() {}

  /**
   * The I/O threads of a client that is given none: daemon threads named {@code matview-peer-io-}
   * and a number, counted over every such client.
   */
  static ThreadFactory ioThreads() {
    return (task) -> {
      Thread thread = new Thread(task, "matview-peer-io-" + ioThreadCount.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  /** {@code host} without the brackets of an IPv6 literal. */
  static String unbracketed(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  /**
   * {@code failure} as the client tells it: a {@link ConnectException} when the instance could not
   * be connected to in time or has no address, a {@link SocketTimeoutException} when no connection
   * to it came free in time, a {@link ProtocolException} when its answer is not HTTP/1.1 as this
   * client reads it, else as it is.
   */
  static Exception told(Exception failure) {
    if (failure instanceof IOException io) {
      return connectionFailure(io);
    }
    if (failure instanceof TimeoutException) {
      return withCause(
          new SocketTimeoutException("No connection to the instance came free in time"), failure);
    }
    if (failure instanceof HttpException) {
      return withCause(
          new ProtocolException("Not an answer of HTTP/1.1: " + failure.getMessage()), failure);
    }
    return failure;
  }

  private static IOException connectionFailure(IOException failure) {
    if (failure instanceof ConnectTimeoutException || failure instanceof UnknownHostException) {
      return withCause(new ConnectException("Could not connect: " + failure.getMessage()), failure);
    }
    if (failure instanceof ConnectionRequestTimeoutException) {
      return withCause(
          new SocketTimeoutException("No connection to the instance came free in time"), failure);
    }
    return failure;
  }

  private static <T extends IOException> T withCause(T failure, Throwable cause) {
    failure.initCause(cause);
    return failure;
  }
}
