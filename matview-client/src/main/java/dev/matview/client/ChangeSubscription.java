package dev.matview.client;

import java.util.Optional;

/**
 * A followed change stream: it reconnects by itself with the id of the last event it handed on,
 * after a {@code reconnect} or {@code dropped} event, a lost connection, or a 503's or 429's {@code
 * Retry-After}, until it is closed or the service refuses it for good.
 */
public interface ChangeSubscription extends AutoCloseable {

  /** The id of the last event handed on, which the next connection sends back. */
  Optional<String> lastEventId();

  /** Whether the stream is still followed. */
  boolean isOpen();

  /** Why the stream ended, when the service refused it (a 400, a 404), else empty. */
  Optional<MatviewClientException> failure();

  /** Stops following the stream. */
  @Override
  void close();
}
