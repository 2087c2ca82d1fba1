package dev.matview.autoconfigure;

import dev.matview.query.routing.LookupGate;
import org.springframework.context.SmartLifecycle;

/**
 * Opens the lookup gate when the application starts and closes it first thing when it stops, before
 * Kafka Streams and the web server stop, so that lookups during shutdown are refused at once with
 * 503 instead of waiting on a Kafka Streams that is closing.
 */
final class LookupGateLifecycle implements SmartLifecycle {

  private final LookupGate gate;

  LookupGateLifecycle(LookupGate gate) {
    this.gate = gate;
  }

  @Override
  public void start() {
    this.gate.open();
  }

  @Override
  public void stop() {
    this.gate.close();
  }

  @Override
  public boolean isRunning() {
    return !this.gate.isClosed();
  }

  /** The highest phase: stopped before every other lifecycle, Kafka Streams' included. */
  @Override
  public int getPhase() {
    return Integer.MAX_VALUE;
  }
}
