package dev.matview.query.peer;

import dev.matview.peer.PeerRequests;
import dev.matview.peer.http.BodyListener;
import dev.matview.peer.http.PeerAsyncHttpClient;
import dev.matview.peer.http.PeerHttpResponse;
import dev.matview.query.routing.CallerContext;
import io.micrometer.observation.Observation;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;

/**
 * Requests to other instances as they go on the wire: at the lookups' base path, with the marker
 * that says what the other instance is to do with them, the caller's credentials where they may go,
 * signed with the instances' shared secret, over the one asynchronous client, made when first
 * needed; each observed under its caller's observation ({@link PeerExchangeObservations}), whose
 * trace context it carries.
 */
final class SignedExchanges implements AutoCloseable {

  private final String basePath;

  private final PeerRequests requests;

  private final boolean sendsCredentials;

  private final Supplier<PeerAsyncHttpClient> makeClient;

  private @Nullable PeerAsyncHttpClient client;

  /** Requests at {@code basePath}, signed with {@code requests}, over a client made when needed. */
  SignedExchanges(
      String basePath,
      PeerRequests requests,
      boolean sendsCredentials,
      Supplier<PeerAsyncHttpClient> makeClient) {
    this.basePath = basePath;
    this.requests = requests;
    this.sendsCredentials = sendsCredentials;
    this.makeClient = makeClient;
  }

  /** The path and query a request for {@code pathAndQuery} within the base path is sent to. */
  String target(String pathAndQuery) {
    return this.basePath + pathAndQuery;
  }

  /** Sends {@code pathAndQuery} to {@code host}, or {@code null} while there is no secret. */
  @Nullable CompletableFuture<PeerHttpResponse> exchange(
      HostInfo host,
      String marker,
      String pathAndQuery,
      byte @Nullable [] body,
      String accept,
      CallerContext caller,
      Duration timeout) {
    String method = body != null ? "POST" : "GET";
    String target = target(pathAndQuery);
    Map<String, String> headers = headers(method, target, body, marker, accept, null, caller);
    if (headers == null) {
      return null;
    }
    Observation observation =
        PeerExchangeObservations.start(caller, host, marker, method, pathAndQuery, false, headers);
    CompletableFuture<PeerHttpResponse> answer;
    try {
      answer = client().exchange(host.host(), host.port(), method, target, headers, body, timeout);
    } catch (RuntimeException ex) {
      PeerExchangeObservations.failed(observation, ex);
      throw ex;
    }
    if (observation.isNoop()) {
      return answer;
    }
    return answer.whenComplete(
        (response, failure) -> {
          if (response != null) {
            PeerExchangeObservations.answered(observation, response.status());
          } else {
            PeerExchangeObservations.failed(observation, failure);
          }
        });
  }

  /** Asks {@code host} for the stream at {@code pathAndQuery}, or {@code null} with no secret. */
  @Nullable Future<Void> stream(
      HostInfo host,
      String pathAndQuery,
      String accept,
      @Nullable String lastEventId,
      CallerContext caller,
      Duration idle,
      BodyListener listener) {
    String target = target(pathAndQuery);
    Map<String, String> headers =
        headers("GET", target, null, PeerRequests.FORWARDED, accept, lastEventId, caller);
    if (headers == null) {
      return null;
    }
    Observation observation =
        PeerExchangeObservations.start(
            caller, host, PeerRequests.FORWARDED, "GET", pathAndQuery, true, headers);
    BodyListener observed = ObservedStream.of(observation, listener);
    Future<Void> exchange;
    try {
      exchange = client().stream(host.host(), host.port(), target, headers, idle, observed);
    } catch (RuntimeException ex) {
      PeerExchangeObservations.failed(observation, ex);
      throw ex;
    }
    return ObservedStream.cancelling(observed, exchange);
  }

  /** Closes the kept-alive connections. */
  @Override
  public void close() {
    PeerAsyncHttpClient made;
    synchronized (this) {
      made = this.client;
    }
    if (made != null) {
      made.close();
    }
  }

  /** The client, made when first needed. */
  private synchronized PeerAsyncHttpClient client() {
    PeerAsyncHttpClient made = this.client;
    if (made == null) {
      made = this.makeClient.get();
      this.client = made;
    }
    return made;
  }

  /** The signed headers of a request to {@code target}, or {@code null} with no secret. */
  private @Nullable Map<String, String> headers(
      String method,
      String target,
      byte @Nullable [] body,
      String marker,
      String accept,
      @Nullable String lastEventId,
      CallerContext caller) {
    Map<String, String> headers = new LinkedHashMap<>(8);
    headers.put(PeerRequests.FORWARDED_HEADER, marker);
    headers.put("Accept", accept);
    if (lastEventId != null) {
      headers.put(PeerRequests.LAST_EVENT_ID_HEADER, lastEventId);
    }
    if (body != null) {
      headers.put("Content-Type", "application/json");
    }
    String authorization = caller.authorization();
    if (authorization != null && this.sendsCredentials) {
      headers.put("Authorization", authorization);
    }
    String signature = this.requests.sign(method, target, body, headers);
    if (signature == null) {
      return null;
    }
    headers.put(PeerRequests.SIGNATURE_HEADER, signature);
    return headers;
  }
}
