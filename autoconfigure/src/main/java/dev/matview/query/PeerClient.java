package dev.matview.query;

import dev.matview.peer.PeerRequests;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import org.apache.kafka.streams.state.HostInfo;
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
      throw PeerFailures.thrown(owner, refused.refusal());
    }
    return ((Routed.Relayed<PeerResponse>) answer).response();
  }

  /**
   * Sends {@code GET basePath + pathAndQuery} to {@code owner} to be answered there, as {@link
   * #get} does, and tells a failure to reach it as a refusal: {@link Refusal.Reason#UNREACHABLE}
   * when it refused the connection or could not be connected to, {@link Refusal.Reason#TIMEOUT}
   * when it did not answer within {@code timeout}, {@link Refusal.Reason#UNAVAILABLE} when it
   * failed otherwise.
   */
  public <T> Routed<T> fetch(
      String view,
      PartitionOwner owner,
      String pathAndQuery,
      CallerContext caller,
      Duration timeout) {
    HttpRequest.Builder request;
    try {
      request =
          request(
              view, owner.host(), owner.partition(), PeerRequests.FORWARDED, pathAndQuery, null);
    } catch (ViewUnavailableException ex) {
      return new Routed.Refused<>(Refusal.of(ex));
    }
    return exchange(
        request, caller, timeout, (failure) -> PeerFailures.ofOwner(view, owner, failure, timeout));
  }

  /**
   * Sends {@code GET basePath + pathAndQuery} to {@code host} to be routed there as a client's
   * lookup would be, for a lookup that this instance cannot place; failures come back as refusals,
   * as from {@link #fetch}.
   */
  public <T> Routed<T> relay(
      String view, HostInfo host, String pathAndQuery, CallerContext caller, Duration timeout) {
    HttpRequest.Builder request;
    try {
      request = request(view, host, null, PeerRequests.RELAYED, pathAndQuery, null);
    } catch (ViewUnavailableException ex) {
      return new Routed.Refused<>(Refusal.of(ex));
    }
    return exchange(
        request, caller, timeout, (failure) -> PeerFailures.ofRelay(view, host, failure, timeout));
  }

  private <T> Routed<T> exchange(
      HttpRequest.Builder request,
      CallerContext caller,
      Duration timeout,
      Function<Exception, Refusal> failed) {
    withCredentials(request, caller);
    try {
      return new Routed.Relayed<>(
          answer(
              this.client.send(
                  request.timeout(timeout).build(), HttpResponse.BodyHandlers.ofByteArray())));
    } catch (IOException ex) {
      return new Routed.Refused<>(failed.apply(ex));
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      return new Routed.Refused<>(failed.apply(ex));
    }
  }

  /**
   * Sends {@code POST basePath + pathAndQuery} with a JSON body to {@code owner}, whose answer or
   * failure to answer comes back as {@link #fetch}'s does, without waiting for it.
   */
  public <T> CompletableFuture<Routed<T>> post(
      String view,
      PartitionOwner owner,
      String pathAndQuery,
      byte[] json,
      CallerContext caller,
      Duration timeout) {
    HttpRequest.Builder request;
    try {
      request =
          request(
              view, owner.host(), owner.partition(), PeerRequests.FORWARDED, pathAndQuery, json);
    } catch (ViewUnavailableException ex) {
      return CompletableFuture.completedFuture(new Routed.Refused<>(Refusal.of(ex)));
    }
    request
        .timeout(timeout)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(json));
    withCredentials(request, caller);
    return this.client
        .sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray())
        .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
        .handle(
            (response, failure) -> {
              if (failure == null) {
                return new Routed.Relayed<>(answer(response));
              }
              return new Routed.Refused<>(PeerFailures.ofAsync(view, owner, failure, timeout));
            });
  }

  /**
   * A signed request to {@code host} carrying {@code marker}, a GET unless {@code body} is given.
   */
  private HttpRequest.Builder request(
      String view,
      HostInfo host,
      @Nullable Integer partition,
      String marker,
      String pathAndQuery,
      byte @Nullable [] body) {
    URI uri =
        URI.create(
            this.scheme + "://" + host.host() + ":" + host.port() + this.basePath + pathAndQuery);
    String sent = uri.getRawPath() + (uri.getRawQuery() != null ? "?" + uri.getRawQuery() : "");
    String signature = this.requests.sign(body != null ? "POST" : "GET", sent, body);
    if (signature == null) {
      throw new ViewUnavailableException(
          view,
          null,
          partition,
          "This instance has not agreed on a secret with the other instances yet, so it cannot"
              + " ask them",
          RETRY);
    }
    return HttpRequest.newBuilder(uri)
        .header(FORWARDED_HEADER, marker)
        .header(PeerRequests.SIGNATURE_HEADER, signature)
        .header("Accept", "application/json, application/problem+json");
  }

  /** Passes the caller's {@code Authorization} header on, where credentials may travel. */
  private void withCredentials(HttpRequest.Builder request, CallerContext caller) {
    String authorization = caller.authorization();
    if (authorization != null && this.sendsCredentials) {
      request.header("Authorization", authorization);
    }
  }

  private static PeerResponse answer(HttpResponse<byte[]> response) {
    return new PeerResponse(response.statusCode(), response.headers(), response.body());
  }
}
