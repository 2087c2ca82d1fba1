package dev.matview.peer.http;

import java.time.Duration;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

/**
 * The settings of the peers' requests: no redirect, authentication, compression or upgrade, and a
 * timeout for the connection and for each part of the answer; made again only when the timeout
 * asked changes, since most requests share one. Cancelling a request ends its exchange and closes
 * its connection, also a kept-alive one it was sent on: without hard cancellation HttpClient
 * ignores the cancel of an exchange under way on a pooled connection, and a relayed change stream
 * whose client left went on holding the owner's stream open.
 */
final class RequestSettings {

  private volatile @Nullable TimedConfig recent;

  /**
   * The settings of a request that may wait {@code timeout} for a connection and for its answer.
   */
  RequestConfig of(Duration timeout) {
    TimedConfig last = this.recent;
    if (last == null || !last.timeout().equals(timeout)) {
      last = new TimedConfig(timeout, made(timeout));
      this.recent = last;
    }
    return last.config();
  }

  private static RequestConfig made(Duration timeout) {
    return RequestConfig.custom()
        .setConnectionRequestTimeout(Timeout.of(timeout))
        .setResponseTimeout(Timeout.of(timeout))
        .setRedirectsEnabled(false)
        .setAuthenticationEnabled(false)
        .setContentCompressionEnabled(false)
        .setProtocolUpgradeEnabled(false)
        .setHardCancellationEnabled(true)
        .build();
  }

  /** Request settings and the timeout they were made for. */
  private record TimedConfig(Duration timeout, RequestConfig config) {}
}
