package dev.matview.peer.http;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import javax.net.ssl.SSLContext;
import org.apache.hc.client5.http.config.TlsConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.message.BasicHttpRequest;
import org.apache.hc.core5.http.nio.entity.AsyncEntityProducers;
import org.apache.hc.core5.http.nio.support.BasicRequestProducer;
import org.apache.hc.core5.http2.HttpVersionPolicy;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.pool.PoolReusePolicy;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.util.TimeValue;
import org.jspecify.annotations.Nullable;

/**
 * The HTTP/1.1 client with which an instance asks another without a thread waiting for the answer,
 * on Apache HttpClient 5 async: one I/O thread carries every exchange, so that thousands of
 * requests may be waited for at once, each answered by a future or read by a {@link BodyListener}.
 * Connections are kept alive in one pool for all instances, the one used last taken first so that
 * the others fall idle and are closed, those to instances that left included; an idempotent request
 * sent on a connection that the other side closed while it was idle is sent once more on a new one.
 * An exchange fails with {@link ConnectException} when the instance could not be connected to in
 * time, {@link SocketTimeoutException} when no connection to it came free or no answer came in
 * time, or another {@link IOException} when the connection failed otherwise, or the answer is not
 * HTTP/1.1 or is longer than this client accepts.
 */
public final class PeerAsyncHttpClient implements AutoCloseable {

  /** The most headers one answer may carry, each at most {@link PeerHttpSettings#maxHeadBytes}. */
  private static final int MAX_HEADERS = 100;

  private final CloseableHttpAsyncClient client;

  private final String scheme;

  private final int maxBodyBytes;

  private final RequestSettings requestSettings = new RequestSettings();

  /**
   * A client that connects within {@code connectTimeout}, over TLS when {@code sslContext} is
   * given, with at most {@code maxConnectionsPerInstance} connections open to one instance and
   * {@code maxConnections} to all; requests beyond wait for a connection without a thread.
   */
  public PeerAsyncHttpClient(
      @Nullable SSLContext sslContext,
      Duration connectTimeout,
      int maxConnectionsPerInstance,
      int maxConnections) {
    this(sslContext, connectTimeout, maxConnectionsPerInstance, maxConnections, null);
  }

  /**
   * A client as above whose I/O thread {@code ioThreads} makes; when {@code null}, a daemon thread
   * named {@code matview-peer-io-} and a number.
   */
  public PeerAsyncHttpClient(
      @Nullable SSLContext sslContext,
      Duration connectTimeout,
      int maxConnectionsPerInstance,
      int maxConnections,
      @Nullable ThreadFactory ioThreads) {
    this(
        sslContext,
        PeerHttpSettings.of(connectTimeout, maxConnectionsPerInstance, maxConnections),
        ioThreads);
  }

  PeerAsyncHttpClient(
      @Nullable SSLContext sslContext,
      PeerHttpSettings settings,
      @Nullable ThreadFactory ioThreads) {
    PoolingAsyncClientConnectionManagerBuilder pool =
        PoolingAsyncClientConnectionManagerBuilder.create()
            .setPoolConcurrencyPolicy(PoolConcurrencyPolicy.STRICT)
            .setConnPoolPolicy(PoolReusePolicy.LIFO)
            .setMaxConnPerRoute(settings.maxConnectionsPerInstance())
            .setMaxConnTotal(settings.maxConnections())
            .setDefaultConnectionConfig(settings.connectionConfig())
            .setDefaultTlsConfig(
                TlsConfig.custom().setVersionPolicy(HttpVersionPolicy.FORCE_HTTP_1).build());
    if (sslContext != null) {
      // HttpClient checks the instance's name as well as the JDK: the JDK's check alone let a
      // certificate naming another host through on this client's handshakes
      pool.setTlsStrategy(
          ClientTlsStrategyBuilder.create()
              .setSslContext(sslContext)
              .setHostVerificationPolicy(HostnameVerificationPolicy.BOTH)
              .buildAsync());
    } else {
      pool.setTlsStrategy(new RefusedTls());
    }
    PoolingAsyncClientConnectionManager connections = pool.build();
    this.client =
        HttpAsyncClients.custom()
            .setConnectionManager(connections)
            .setIOReactorConfig(
                IOReactorConfig.custom().setIoThreadCount(1).setTcpNoDelay(true).build())
            .setHttp1Config(
                Http1Config.custom()
                    .setMaxLineLength(settings.maxHeadBytes())
                    .setMaxHeaderCount(MAX_HEADERS)
                    .build())
            .setRetryStrategy(new IdempotentRetries())
            .setThreadFactory((ioThreads != null) ? ioThreads : Exchanges.ioThreads())
            .evictIdleConnections(TimeValue.of(settings.maxIdle()))
            .disableRedirectHandling()
            .disableCookieManagement()
            .disableAuthCaching()
            .disableConnectionState()
            .build();
    this.client.start();
    this.scheme = sslContext != null ? "https" : "http";
    this.maxBodyBytes = settings.maxBodyBytes();
  }

  /**
   * Sends {@code method target} with {@code headers} and {@code body} to {@code host} at {@code
   * port}; the future completes with the answer, or fails as this client's exchanges fail, also
   * when waiting for a connection or for the answer took longer than {@code timeout} each. {@code
   * target} is a path and query already percent-encoded, {@code body} is sent with its {@code
   * Content-Length}; throws {@link IllegalArgumentException} when the target or a header cannot be
   * carried by HTTP/1.1.
   */
  public CompletableFuture<PeerHttpResponse> exchange(
      String host,
      int port,
      String method,
      String target,
      Map<String, String> headers,
      byte @Nullable [] body,
      Duration timeout) {
    CompletableFuture<PeerHttpResponse> answer = new CompletableFuture<>();
    this.client.execute(
        new BasicRequestProducer(
            request(host, port, method, target, headers),
            (body != null)
                ? AsyncEntityProducers.create(body, ContentType.APPLICATION_JSON)
                : null),
        new BoundedResponseConsumer(this.maxBodyBytes),
        context(timeout),
        new FutureCallback<PeerHttpResponse>() {
          @Override
          public void completed(PeerHttpResponse response) {
            answer.complete(response);
          }

          @Override
          public void failed(Exception ex) {
            answer.completeExceptionally(Exchanges.told(ex));
          }

          @Override
          public void cancelled() {
            answer.completeExceptionally(new IOException("The request was cancelled"));
          }
        });
    return answer;
  }

  /**
   * Sends {@code GET target} with {@code headers} to {@code host} at {@code port} and hands the
   * answer's body to {@code listener} as it arrives, reading on only as fast as it takes it; the
   * exchange fails when waiting for a connection, or for any next byte of the answer, takes longer
   * than {@code timeout}. Cancelling the future ends the exchange and closes its connection.
   */
  public Future<Void> stream(
      String host,
      int port,
      String target,
      Map<String, String> headers,
      Duration timeout,
      BodyListener listener) {
    StreamingResponseConsumer body = new StreamingResponseConsumer(listener);
    Future<Void> exchange =
        this.client.execute(
            new BasicRequestProducer(request(host, port, "GET", target, headers), null),
            body,
            context(timeout),
            new FutureCallback<Void>() {
              @Override
              public void completed(Void unused) {
                // the consumer told the listener
              }

              @Override
              public void failed(Exception ex) {
                body.failed(Exchanges.told(ex));
              }

              @Override
              public void cancelled() {
                body.failed(new IOException("The request was cancelled"));
              }
            });
    return new CancelHookFuture(exchange, body::abort);
  }

  private BasicHttpRequest request(
      String host, int port, String method, String target, Map<String, String> headers) {
    RequestSyntax.check(method, target, headers);
    HttpHost to = new HttpHost(this.scheme, Exchanges.unbracketed(host), port);
    BasicHttpRequest request = new BasicHttpRequest(method, to, target);
    headers.forEach(request::addHeader);
    return request;
  }

  private HttpClientContext context(Duration timeout) {
    HttpClientContext context = HttpClientContext.create();
    context.setRequestConfig(this.requestSettings.of(timeout));
    return context;
  }

  /** Closes every connection and stops the I/O thread. */
  @Override
  public void close() {
    this.client.close(CloseMode.GRACEFUL);
  }
}
