package dev.matview.peer.http;

import java.time.Duration;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * How the peers' client keeps its connections and how much of an answer it accepts.
 *
 * @param connectTimeout how long connecting to an instance may take, the TLS handshake included
 * @param maxConnectionsPerInstance the most connections open to one instance at once
 * @param maxConnections the most connections open to all instances at once
 * @param maxIdle how long a connection may stay idle before it is closed
 * @param validateAfterInactivity how long a connection may stay idle before it is checked for
 *     having been closed by the other side, when it is taken again
 * @param maxHeadBytes the most bytes the status line and headers of one answer may take
 * @param maxBodyBytes the most bytes the body of one answer may take
 */
record PeerHttpSettings(
    Duration connectTimeout,
    int maxConnectionsPerInstance,
    int maxConnections,
    Duration maxIdle,
    Duration validateAfterInactivity,
    int maxHeadBytes,
    int maxBodyBytes) {

  /** Shorter than the time a server keeps an idle connection open by default. */
  static final Duration MAX_IDLE = Duration.ofSeconds(15);

  /** Long enough that connections in use are not checked, short enough to meet a closed one. */
  static final Duration VALIDATE_AFTER_INACTIVITY = Duration.ofSeconds(2);

  static final int MAX_HEAD_BYTES = 64 * 1024;

  /** So that a broken answer cannot fill the heap. */
  static final int MAX_BODY_BYTES = 64 * 1024 * 1024;

  /** The settings of a client with these limits on connections, and defaults for the rest. */
  static PeerHttpSettings of(
      Duration connectTimeout, int maxConnectionsPerInstance, int maxConnections) {
    return new PeerHttpSettings(
        connectTimeout,
        maxConnectionsPerInstance,
        maxConnections,
        MAX_IDLE,
        VALIDATE_AFTER_INACTIVITY,
        MAX_HEAD_BYTES,
        MAX_BODY_BYTES);
  }

  /**
   * How each connection is made and kept: connected within the connect timeout, checked before
   * reuse once idle a while.
   */
  ConnectionConfig connectionConfig() {
    return ConnectionConfig.custom()
        .setConnectTimeout(Timeout.of(this.connectTimeout))
        .setValidateAfterInactivity(TimeValue.of(this.validateAfterInactivity))
        .build();
  }
}
