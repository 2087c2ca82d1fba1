package dev.matview.query.routing;

import dev.matview.query.answer.Refusal;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Open while this instance serves lookups; closed as soon as it begins to shut down, so that a
 * lookup is refused at once instead of waiting on a Kafka Streams that is closing.
 */
public final class LookupGate {

  private static final Duration RETRY = Duration.ofSeconds(1);

  private volatile boolean closed;

  /** Lets lookups through. */
  public void open() {
    this.closed = false;
  }

  /** Refuses every lookup from now on: this instance is shutting down. */
  public void close() {
    this.closed = true;
  }

  /** Whether lookups are refused. */
  public boolean isClosed() {
    return this.closed;
  }

  /** The refusal of a lookup of {@code key} in {@code view} while the gate is closed. */
  public Refusal refusal(String view, @Nullable Object key) {
    return new Refusal(
        Refusal.Reason.SHUTTING_DOWN,
        view,
        key,
        null,
        "This instance is shutting down; ask another instance of the application",
        RETRY);
  }
}
