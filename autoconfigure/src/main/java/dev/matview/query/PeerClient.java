package dev.matview.query;

import dev.matview.peer.PeerRequests;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Forwards lookups to the instance that owns a partition, over one pooled HTTP client created once,
 * with the forwarded marker and a signature made with the instances' shared secret. The caller's
 * credentials go along only over TLS or on a network said to be trusted. Failures are told without
 * naming the other instance, which is logged instead.
 */
public final class PeerClient {

  /** Marks a request that another instance forwarded; it is never forwarded again. */
  public static final String FORWARDED_HEADER = PeerRequests.FORWARDED_HEADER;

  private static final Log logger = LogFactory.getLog(PeerClient.class);

  private static final Duration RETRY = StreamsRouting.REBALANCE_RETRY;

  private final HttpClient client;

  private final PeerRequests requests;

  private final boolean sendsCredentials;

  private final String scheme;

  private final String basePath;

  private final Duration timeout;

  /**
   * A client that reaches other instances at {@code basePath} (without a trailing slash) over
   * {@code https} when {@code sslContext} is given, else {@code http}, giving each request at most
   * {@code timeout} and signing it with {@code requests}; the caller's {@code Authorization} header
   * goes along over {@code https}, or over {@code http} when {@code trustedNetwork}.
   */
  public PeerClient(
      String basePath,
      Duration timeout,
      @Nullable SSLContext sslContext,
      PeerRequests requests,
      boolean trustedNetwork) {
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .connectTimeout(timeout)
            .followRedirects(HttpClient.Redirect.NEVER)
            .version(HttpClient.Version.HTTP_1_1);
    if (sslContext != null) {
      builder.sslContext(sslContext);
    }
    this.client = builder.build();
    this.scheme = sslContext != null ? "https" : "http";
    this.basePath = basePath;
    this.timeout = timeout;
    this.requests = requests;
    this.sendsCredentials = sslContext != null || trustedNetwork;
  }

  /** How long a forwarded request may take. */
  public Duration timeout() {
    return this.timeout;
  }

  /**
   * Sends {@code GET basePath + pathAndQuery} to {@code owner} and waits for the answer on the
   * calling thread, so that no other thread has to complete it; fails with {@link
   * ViewUnavailableException} when the owner cannot be reached and {@link ViewTimeoutException}
   * when it does not answer within {@code timeout}.
   */
  public PeerResponse get(
      String view,
      PartitionOwner owner,
      String pathAndQuery,
      CallerContext caller,
      Duration timeout) {
    Routed<PeerResponse> answer = fetch(view, owner, pathAndQuery, caller, timeout);
    if (answer instanceof Routed.Refused<PeerResponse> refused) {
      throw thrown(owner, refused.refusal());
    }
    return ((Routed.Relayed<PeerResponse>) answer).response();
  }

  /**
   * Sends {@code GET basePath + pathAndQuery} to {@code owner} as {@link #get} does, and tells a
   * failure to reach it as a refusal: {@link Refusal.Reason#UNREACHABLE} when it refused the
   * connection or could not be connected to, {@link Refusal.Reason#TIMEOUT} when it did not answer
   * within {@code timeout}, {@link Refusal.Reason#UNAVAILABLE} when it failed otherwise.
   */
  public <T> Routed<T> fetch(
      String view,
      PartitionOwner owner,
      String pathAndQuery,
      CallerContext caller,
      Duration timeout) {
    try {
      HttpRequest request =
          request(view, owner, "GET", pathAndQuery, null, caller, timeout).build();
      return new Routed.Relayed<>(
          answer(this.client.send(request, HttpResponse.BodyHandlers.ofByteArray())));
    } catch (ViewUnavailableException ex) {
      return new Routed.Refused<>(Refusal.of(ex));
    } catch (IOException ex) {
      return new Routed.Refused<>(refusal(view, owner, ex, timeout));
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      return new Routed.Refused<>(refusal(view, owner, ex, timeout));
    }
  }

  /** Sends {@code POST basePath + pathAndQuery} with a JSON body to {@code owner}. */
  public CompletableFuture<PeerResponse> post(
      String view,
      PartitionOwner owner,
      String pathAndQuery,
      byte[] json,
      CallerContext caller,
      Duration timeout) {
    HttpRequest.Builder request =
        request(view, owner, "POST", pathAndQuery, json, caller, timeout)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(json));
    return send(view, owner, request, timeout);
  }

  private HttpRequest.Builder request(
      String view,
      PartitionOwner owner,
      String method,
      String pathAndQuery,
      byte @Nullable [] body,
      CallerContext caller,
      Duration timeout) {
    URI uri =
        URI.create(
            this.scheme
                + "://"
                + owner.host().host()
                + ":"
                + owner.host().port()
                + this.basePath
                + pathAndQuery);
    String sent = uri.getRawPath() + (uri.getRawQuery() != null ? "?" + uri.getRawQuery() : "");
    String signature = this.requests.sign(method, sent, body);
    if (signature == null) {
      throw new ViewUnavailableException(
          view,
          null,
          owner.partition(),
          "This instance has not agreed on a secret with the other instances yet, so it cannot"
              + " ask them",
          RETRY);
    }
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(timeout)
            .header(FORWARDED_HEADER, "1")
            .header(PeerRequests.SIGNATURE_HEADER, signature)
            .header("Accept", "application/json, application/problem+json");
    if (caller.authorization() != null && this.sendsCredentials) {
      request.header("Authorization", caller.authorization());
    }
    return request;
  }

  private CompletableFuture<PeerResponse> send(
      String view, PartitionOwner owner, HttpRequest.Builder request, Duration timeout) {
    return this.client
        .sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray())
        .orTimeout(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
        .handle(
            (response, failure) -> {
              if (failure != null) {
                throw translate(view, owner, unwrap(failure), timeout);
              }
              return answer(response);
            });
  }

  private static PeerResponse answer(HttpResponse<byte[]> response) {
    return new PeerResponse(response.statusCode(), response.headers(), response.body());
  }

  private static RuntimeException translate(
      String view, PartitionOwner owner, Throwable failure, Duration timeout) {
    if (!(failure instanceof Exception exception)
        || !(failure instanceof IOException || failure instanceof TimeoutException)) {
      return failure instanceof RuntimeException runtime
          ? runtime
          : new IllegalStateException("Forwarding to another instance failed", failure);
    }
    return thrown(owner, refusal(view, owner, exception, timeout));
  }

  private static RuntimeException thrown(PartitionOwner owner, Refusal refusal) {
    return refusal.reason() == Refusal.Reason.TIMEOUT
        ? new ViewTimeoutException(
            refusal.view(), owner.partition(), owner.describe(), refusal.detail())
        : refusal.toException();
  }

  /**
   * The refusal that a {@code failure} of a request to {@code owner} tells: an I/O failure, a
   * timeout or an interrupt of the waiting thread.
   */
  private static Refusal refusal(
      String view, PartitionOwner owner, Exception failure, Duration timeout) {
    Refusal.Reason reason = Refusal.Reason.UNAVAILABLE;
    String what = "failed to answer";
    if (failure instanceof HttpConnectTimeoutException || failure instanceof ConnectException) {
      reason = Refusal.Reason.UNREACHABLE;
      what = "cannot be reached";
    } else if (failure instanceof HttpTimeoutException || failure instanceof TimeoutException) {
      reason = Refusal.Reason.TIMEOUT;
      what = "did not answer within " + timeout.toMillis() + " ms";
    } else if (failure instanceof InterruptedException) {
      what = "was not waited for: the request thread was interrupted";
    }
    warn(owner, view, what + " (" + failure + ")");
    String owned =
        "Partition " + owner.partition() + " of view '" + view + "' is owned by another instance";
    return new Refusal(reason, view, null, owner.partition(), owned + ", which " + what, RETRY);
  }

  /** Logs at WARN what went wrong with {@code owner} of a partition of {@code view}. */
  static void warn(PartitionOwner owner, String view, String what) {
    logger.warn(
        "The owner "
            + owner.describe()
            + " of partition "
            + owner.partition()
            + " of view '"
            + view
            + "' "
            + what);
  }

  /** Waits for {@code future}, which completes within its own timeout, and throws its failure. */
  public static <T> T join(CompletableFuture<T> future) {
    try {
      return future.join();
    } catch (CompletionException ex) {
      Throwable cause = unwrap(ex);
      throw cause instanceof RuntimeException runtime
          ? runtime
          : new IllegalStateException(cause.getMessage(), cause);
    }
  }

  private static Throwable unwrap(Throwable failure) {
    Throwable cause = failure;
    while (cause instanceof CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }
}
