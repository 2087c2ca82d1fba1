package dev.matview.peer.http;

import java.net.SocketAddress;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.nio.ssl.TlsStrategy;
import org.apache.hc.core5.reactor.ssl.TransportSecurityLayer;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

/**
 * Refuses TLS, which a client without an SSL context never asks for: given in place of Apache's
 * default strategy, which would load the JVM's trust store for nothing.
 */
final class RefusedTls implements TlsStrategy {

  @Override
  @Deprecated
  public boolean upgrade(
      TransportSecurityLayer sessionLayer,
      HttpHost host,
      SocketAddress localAddress,
      SocketAddress remoteAddress,
      @Nullable Object attachment,
      Timeout handshakeTimeout) {
    throw new UnsupportedOperationException(
        "This instance asks the others over plain HTTP, not over TLS");
  }
}
