package dev.matview.peer.http;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.SocketException;
import org.apache.hc.client5.http.HttpRequestRetryStrategy;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ConnectionClosedException;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.Method;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.util.TimeValue;
import org.jspecify.annotations.Nullable;

/**
 * Sends an idempotent request once more, at once, when the connection failed before any answer
 * came: the other side most likely closed it while it was idle. A POST is never sent again, since
 * the other side may have acted on it, and an answer is never asked for again: a 503 from another
 * instance is its answer to pass on, and one whose body broke off is not read again from its start,
 * which would hand a body's reader what it already had.
 */
final class IdempotentRetries implements HttpRequestRetryStrategy {

  private static final int MAX_RETRIES = 1;

  @Override
  public boolean retryRequest(
      HttpRequest request, IOException exception, int execCount, @Nullable HttpContext context) {
    return execCount <= MAX_RETRIES
        && Method.isIdempotent(request.getMethod())
        && !(context instanceof HttpClientContext exchange && exchange.getResponse() != null)
        && endedBeforeAnswer(exception);
  }

  @Override
  public boolean retryRequest(HttpResponse response, int execCount, @Nullable HttpContext context) {
    return false;
  }

  @Override
  public TimeValue getRetryInterval(
      HttpRequest request, IOException exception, int execCount, @Nullable HttpContext context) {
    return TimeValue.ZERO_MILLISECONDS;
  }

  @Override
  public TimeValue getRetryInterval(
      HttpResponse response, int execCount, @Nullable HttpContext context) {
    return TimeValue.ZERO_MILLISECONDS;
  }

  /**
   * Whether {@code exception} tells of a connection that ended or was reset before an answer,
   * rather than of one that could not be made or of an answer that did not come in time.
   */
  private static boolean endedBeforeAnswer(IOException exception) {
    if (exception instanceof NoHttpResponseException
        || exception instanceof ConnectionClosedException) {
      return true;
    }
    return exception instanceof SocketException
        && !(exception instanceof ConnectException
            || exception instanceof NoRouteToHostException
            || exception instanceof PortUnreachableException);
  }
}
