package dev.matview.query.peer;

import dev.matview.peer.http.BodyListener;
import dev.matview.peer.http.CancelHookFuture;
import io.micrometer.observation.Observation;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * A streamed answer of another instance, passed on to its listener, whose exchange's observation
 * stops once, before the listener hears of the end: when the body ends ({@code answered}), when the
 * exchange fails, or when this instance cancels it ({@code cancelled}), each with the answer's
 * status if it came.
 */
final class ObservedStream implements BodyListener {

  private final Observation observation;

  private final BodyListener listener;

  private final AtomicBoolean stopped = new AtomicBoolean();

  private volatile int status = -1;

  private ObservedStream(Observation observation, BodyListener listener) {
    this.observation = observation;
    this.listener = listener;
  }

  /** {@code listener}, its exchange observed by {@code observation} unless a no-op. */
  static BodyListener of(Observation observation, BodyListener listener) {
    return observation.isNoop() ? listener : new ObservedStream(observation, listener);
  }

  /** {@code exchange}, whose cancel stops the observation of {@code listener}'s exchange. */
  static Future<Void> cancelling(BodyListener listener, Future<Void> exchange) {
    return (listener instanceof ObservedStream observed)
        ? new CancelHookFuture(exchange, () -> observed.stop("cancelled", null))
        : exchange;
  }

  @Override
  public void head(int status, @Nullable String contentType) {
    this.status = status;
    this.listener.head(status, contentType);
  }

  @Override
  public void data(ByteBuffer bytes, Runnable more) throws IOException {
    this.listener.data(bytes, more);
  }

  @Override
  public void ended() {
    try {
      stop(null, null);
    } finally {
      this.listener.ended();
    }
  }

  @Override
  public void failed(Exception failure) {
    try {
      stop(null, failure);
    } finally {
      this.listener.failed(failure);
    }
  }

  private void stop(@Nullable String outcome, @Nullable Throwable failure) {
    if (this.stopped.compareAndSet(false, true)) {
      PeerExchangeObservations.stop(this.observation, this.status, outcome, failure);
    }
  }
}
