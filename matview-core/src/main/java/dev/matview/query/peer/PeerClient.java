package dev.matview.query.peer;

import dev.matview.peer.PeerRequests;
import dev.matview.peer.PeerResponse;
import dev.matview.peer.http.BodyListener;
import dev.matview.peer.http.PeerAsyncHttpClient;
import dev.matview.peer.http.PeerHttpResponse;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.answer.Refusal;
import dev.matview.query.answer.Routed;
import dev.matview.query.routing.CallerContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;

/**
 * Forwards lookups to the instance that owns a partition, over kept-alive connections made by one
 * client created once, with the forwarded marker and a signature made with the instances' shared
 * secret. The caller's credentials go along only over TLS or on a network said to be trusted.
 * Failures are told without naming the other instance, which is logged instead.
 */
public final class PeerClient implements AutoCloseable {

  /** Marks a request that another instance forwarded; it is never forwarded again. */
  public static final String FORWARDED_HEADER = PeerRequests.FORWARDED_HEADER;

  private static final String ACCEPT = "application/json, application/problem+json";

  private static final String EVENT_STREAM = "text/event-stream";

  /**
   * The most connections open to one other instance for requests and streams that wait for an
   * answer without a thread: each waits on a connection of its own.
   */
  private static final int MAX_WAITING_CONNECTIONS = 4_096;

  /**
   * The most change streams relayed from one other instance at once, each on a connection of its
   * own: the connections to it less a quarter kept for lookups, slices and forwards.
   */
  public static final int MAX_RELAYED_STREAMS_PER_INSTANCE = MAX_WAITING_CONNECTIONS * 3 / 4;

  private final SignedExchanges exchanges;

  private final Duration timeout;

  /**
   * A client that reaches other instances at {@code basePath} (the servlet context path and the
   * lookups' base path, without a trailing slash) over {@code https} when {@code sslContext} is
   * given, else {@code http}, giving each request at most {@code timeout} and signing it with
   * {@code requests}; the caller's {@code Authorization} header goes along over {@code https}, or
   * over {@code http} when {@code trustedNetwork}.
   */
  public PeerClient(
      String basePath,
      Duration timeout,
      @Nullable SSLContext sslContext,
      PeerRequests requests,
      boolean trustedNetwork) {
    this(basePath, timeout, sslContext, requests, trustedNetwork, null);
  }

  /** A client as above whose I/O thread {@code ioThreads} makes when given. */
  public PeerClient(
      String basePath,
      Duration timeout,
      @Nullable SSLContext sslContext,
      PeerRequests requests,
      boolean trustedNetwork,
      @Nullable ThreadFactory ioThreads) {
    this.exchanges =
        new SignedExchanges(
            basePath,
            requests,
            sslContext != null || trustedNetwork,
            () ->
                new PeerAsyncHttpClient(
                    sslContext,
                    timeout,
                    MAX_WAITING_CONNECTIONS,
                    MAX_WAITING_CONNECTIONS,
                    ioThreads));
    this.timeout = timeout;
  }

  /** How long a forwarded request may take. */
  public Duration timeout() {
    return this.timeout;
  }

  /** Sends a lookup this instance cannot place to {@code host} to be routed there. */
  public <T> CompletableFuture<Routed<T>> relay(
      String view, HostInfo host, String pathAndQuery, CallerContext caller, Duration timeout) {
    return exchange(
        view,
        host,
        null,
        PeerRequests.RELAYED,
        pathAndQuery,
        null,
        caller,
        timeout,
        (failure) -> PeerFailures.ofRelay(view, host, failure, timeout));
  }

  /** Sends {@code GET basePath + pathAndQuery} to {@code owner}: its answer or the refusal. */
  public <T> CompletableFuture<Routed<T>> fetch(
      String view,
      PartitionOwner owner,
      String pathAndQuery,
      CallerContext caller,
      Duration timeout) {
    return toOwner(view, owner, pathAndQuery, null, caller, timeout);
  }

  /** Sends {@code POST basePath + pathAndQuery} with a JSON body to {@code owner}. */
  public <T> CompletableFuture<Routed<T>> post(
      String view,
      PartitionOwner owner,
      String pathAndQuery,
      byte[] json,
      CallerContext caller,
      Duration timeout) {
    return toOwner(view, owner, pathAndQuery, json, caller, timeout);
  }

  private <T> CompletableFuture<Routed<T>> toOwner(
      String view,
      PartitionOwner owner,
      String pathAndQuery,
      byte @Nullable [] json,
      CallerContext caller,
      Duration timeout) {
    return exchange(
        view,
        owner.host(),
        owner.partition(),
        PeerRequests.FORWARDED,
        pathAndQuery,
        json,
        caller,
        timeout,
        (failure) -> PeerFailures.ofOwner(view, owner, failure, timeout));
  }

  /**
   * Sends a forwarded {@code POST} to {@code host}; a failure comes back as {@code failed} tells.
   */
  CompletableFuture<Routed<PeerResponse>> postForwarded(
      String view,
      HostInfo host,
      String pathAndQuery,
      byte[] json,
      CallerContext caller,
      Duration timeout,
      Function<Exception, Refusal> failed) {
    return exchange(
        view, host, null, PeerRequests.FORWARDED, pathAndQuery, json, caller, timeout, failed);
  }

  /** Asks {@code owner} for a stream of {@code type}, or {@code null} while there is no secret. */
  public @Nullable Future<Void> stream(
      PartitionOwner owner,
      String pathAndQuery,
      String type,
      CallerContext caller,
      Duration timeout,
      BodyListener listener) {
    return this.exchanges.stream(
        owner.host(), pathAndQuery, type + ", " + ACCEPT, null, caller, timeout, listener);
  }

  /** Asks {@code host} for an event stream, after {@code lastEventId} when given. */
  public @Nullable Future<Void> stream(
      HostInfo host,
      String pathAndQuery,
      @Nullable String lastEventId,
      CallerContext caller,
      Duration idle,
      BodyListener listener) {
    return this.exchanges.stream(
        host, pathAndQuery, EVENT_STREAM + ", " + ACCEPT, lastEventId, caller, idle, listener);
  }

  private <T> CompletableFuture<Routed<T>> exchange(
      String view,
      HostInfo host,
      @Nullable Integer partition,
      String marker,
      String pathAndQuery,
      byte @Nullable [] body,
      CallerContext caller,
      Duration timeout,
      Function<Exception, Refusal> failed) {
    CompletableFuture<PeerHttpResponse> sent =
        this.exchanges.exchange(host, marker, pathAndQuery, body, ACCEPT, caller, timeout);
    if (sent == null) {
      return CompletableFuture.completedFuture(
          new Routed.Refused<>(PeerFailures.notAgreed(view, partition)));
    }
    String target = this.exchanges.target(pathAndQuery);
    return sent.handle(
        (response, failure) ->
            (failure == null)
                ? PeerAnswers.of(view, host, partition, target, response)
                : new Routed.Refused<>(failed.apply(PeerFailures.unwrapped(failure))));
  }

  /** Closes the kept-alive connections. */
  @Override
  public void close() {
    this.exchanges.close();
  }
}
