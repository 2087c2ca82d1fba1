package dev.matview.autoconfigure;

import dev.matview.query.routing.LookupGate;
import org.springframework.context.SmartLifecycle;

/**
 * Opens the lookup gate at start and closes it first at stop, so lookups during shutdown are
 * refused at once rather than wait on a closing Kafka Streams.
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
