package dev.matview.peer.http;

import java.net.Socket;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.pool.PoolReusePolicy;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

/**
 * Builds the pool of connections to the other instances: one pool for all of them, within a limit
 * per instance and one in all, the connection used last taken first so that the others fall idle
 * and go; over TLS when there is an SSL context, the JDK checking each instance's name against its
 * certificate as for any HTTPS connection.
 */
final class PeerConnectionPool {

  private PeerConnectionPool() {}

  static PoolingHttpClientConnectionManager create(
      @Nullable SSLContext sslContext, PeerHttpSettings settings) {
    Http1Config http1 = Http1Config.custom().setMaxLineLength(settings.maxHeadBytes()).build();
    PoolingHttpClientConnectionManagerBuilder pool =
        PoolingHttpClientConnectionManagerBuilder.create()
            .setConnectionFactory(
                ManagedHttpClientConnectionFactory.builder()
                    .http1Config(http1)
                    .responseParserFactory(
                        (unused) -> new HeadLimitedResponseParser(http1, settings.maxHeadBytes()))
                    .build())
            .setPoolConcurrencyPolicy(PoolConcurrencyPolicy.STRICT)
            .setConnPoolPolicy(PoolReusePolicy.LIFO)
            .setMaxConnPerRoute(settings.maxConnectionsPerInstance())
            .setMaxConnTotal(settings.maxConnections())
            .setDefaultSocketConfig(SocketConfig.custom().setTcpNoDelay(true).build())
            .setDefaultConnectionConfig(connections(settings));
    pool.setTlsSocketStrategy(
        sslContext != null
            ? new DefaultClientTlsStrategy(sslContext, HostnameVerificationPolicy.BUILTIN, null)
            : PeerConnectionPool::withoutTls);
    return pool.build();
  }

  /**
   * How each connection is made and kept, alike for both clients: connected within the connect
   * timeout, checked before reuse once idle a while.
   */
  static ConnectionConfig connections(PeerHttpSettings settings) {
    return ConnectionConfig.custom()
        .setConnectTimeout(Timeout.of(settings.connectTimeout()))
        .setValidateAfterInactivity(TimeValue.of(settings.validateAfterInactivity()))
        .build();
  }

  /**
   * Refuses TLS, which a client without an SSL context never asks for: given in place of Apache's
   * default strategy, which would load the JVM's trust store and the public suffix list for
   * nothing.
   */
  private static SSLSocket withoutTls(
      Socket socket,
      String target,
      int port,
      @Nullable Object attachment,
      @Nullable HttpContext context)
      throws SSLException {
    throw new SSLException("This instance asks the others over plain HTTP, not over TLS");
  }
}
