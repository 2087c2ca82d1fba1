package dev.matview.peer.http;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.impl.IdleConnectionEvictor;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.jspecify.annotations.Nullable;

/**
 * The HTTP/1.1 client with which instances ask each other, on Apache HttpClient 5 classic: each
 * exchange runs on the calling thread over a pooled, kept-alive connection, and an idempotent
 * request sent on a connection that the other side closed while it was idle is sent once more on a
 * new one. Connections idle for long are closed, those to instances that left included.
 */
public final class PeerHttpClient implements AutoCloseable {

  private static final AtomicInteger evictors = new AtomicInteger();

  private final CloseableHttpClient client;

  private final IdleConnectionEvictor evictor;

  private final String scheme;

  private final BodyReader bodies;

  private final RequestSettings requestSettings = new RequestSettings();

  /**
   * A client that connects within {@code connectTimeout}, over TLS when {@code sslContext} is
   * given, with at most {@code maxConnectionsPerInstance} connections open to one instance and
   * {@code maxConnections} to all.
   */
  public PeerHttpClient(
      @Nullable SSLContext sslContext,
      Duration connectTimeout,
      int maxConnectionsPerInstance,
      int maxConnections) {
    this(
        sslContext, PeerHttpSettings.of(connectTimeout, maxConnectionsPerInstance, maxConnections));
  }

  PeerHttpClient(@Nullable SSLContext sslContext, PeerHttpSettings settings) {
    PoolingHttpClientConnectionManager pool = PeerConnectionPool.create(sslContext, settings);
    this.client =
        HttpClients.custom()
            .setConnectionManager(pool)
            .setRetryStrategy(new IdempotentRetries())
            .disableRedirectHandling()
            .disableCookieManagement()
            .disableAuthCaching()
            .disableContentCompression()
            .disableConnectionState()
            .disableDefaultUserAgent()
            .build();
    TimeValue maxIdle = TimeValue.of(settings.maxIdle());
    this.evictor =
        new IdleConnectionEvictor(
            pool, Exchanges.daemonThreads("matview-peer-evictor-", evictors), maxIdle, maxIdle);
    this.evictor.start();
    this.scheme = sslContext != null ? "https" : "http";
    this.bodies = new BodyReader(settings.maxBodyBytes());
  }

  /**
   * Sends {@code method target} with {@code headers} and {@code body} to {@code host} at {@code
   * port} and reads the answer; waiting for a connection and for each part of the answer may take
   * {@code timeout} each.
   *
   * @param target the request target, a path and query already percent-encoded
   * @param headers header names and values, none of them with a line break
   * @param body the body, sent with its {@code Content-Length}, or {@code null} for none
   * @throws ConnectException when the instance cannot be connected to in time
   * @throws SocketTimeoutException when the answer has not arrived within {@code timeout}
   * @throws IOException when the connection fails otherwise, or the answer is not HTTP/1.1 or is
   *     longer than this client accepts
   */
  public PeerHttpResponse exchange(
      String host,
      int port,
      String method,
      String target,
      Map<String, String> headers,
      byte @Nullable [] body,
      Duration timeout)
      throws IOException {
    RequestSyntax.check(method, target, headers);
    BasicClassicHttpRequest request = new BasicClassicHttpRequest(method, target);
    headers.forEach(request::addHeader);
    if (body != null) {
      request.setEntity(new ByteArrayEntity(body, null));
    }
    HttpClientContext context = HttpClientContext.create();
    context.setRequestConfig(this.requestSettings.of(timeout));
    try {
      return this.client.execute(
          new HttpHost(this.scheme, Exchanges.unbracketed(host), port),
          request,
          context,
          this::response);
    } catch (ConnectTimeoutException
        | UnknownHostException
        | ConnectionRequestTimeoutException ex) {
      throw Exchanges.told(ex);
    }
  }

  /**
   * Sends {@code GET target} with {@code headers} to {@code host} at {@code port} and returns its
   * answer with the body still to be read, which the caller must close; waiting for a connection,
   * for the answer's head and for each read of its body may take {@code timeout} each.
   *
   * @throws IOException as {@link #exchange} does
   */
  public PeerHttpStream open(
      String host, int port, String target, Map<String, String> headers, Duration timeout)
      throws IOException {
    RequestSyntax.check("GET", target, headers);
    BasicClassicHttpRequest request = new BasicClassicHttpRequest("GET", target);
    headers.forEach(request::addHeader);
    HttpClientContext context = HttpClientContext.create();
    context.setRequestConfig(this.requestSettings.of(timeout));
    ClassicHttpResponse response;
    try {
      response =
          this.client.executeOpen(
              new HttpHost(this.scheme, Exchanges.unbracketed(host), port), request, context);
    } catch (ConnectTimeoutException
        | UnknownHostException
        | ConnectionRequestTimeoutException ex) {
      throw Exchanges.told(ex);
    }
    try {
      return new PeerHttpStream(response);
    } catch (IOException | RuntimeException ex) {
      response.close();
      throw ex;
    }
  }

  /** Closes every connection, and stops closing idle ones. */
  @Override
  public void close() {
    this.evictor.shutdown();
    this.client.close(CloseMode.GRACEFUL);
  }

  private PeerHttpResponse response(ClassicHttpResponse response) throws IOException {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    for (Header header : response.getHeaders()) {
      headers
          .computeIfAbsent(header.getName(), (name) -> new ArrayList<>(1))
          .add(header.getValue());
    }
    return new PeerHttpResponse(
        response.getCode(), headers, this.bodies.read(response.getEntity()));
  }
}
