package dev.matview.test;

import dev.matview.broker.KraftBroker;
import java.util.Map;

/**
 * The in-process single-node KRaft broker of a {@link MatviewIntegrationTest}, in a temporary
 * directory of its own that is removed only once the broker has stopped: a broker whose directory
 * goes first fails to write its checkpoints as it stops. The directory is removed by {@link
 * #close()}, never by a JVM shutdown hook that could run while the broker still writes.
 */
final class TestBroker implements AutoCloseable {

  private final TemporaryDirectory logDir;

  private final KraftBroker broker;

  private TestBroker(TemporaryDirectory logDir, KraftBroker broker) {
    this.logDir = logDir;
    this.broker = broker;
  }

  /** Starts a broker on a free port whose new topics have {@code partitions} partitions. */
  static TestBroker start(int partitions) {
    if (partitions < 1) {
      throw new IllegalArgumentException(
          "@MatviewIntegrationTest's partitions must be at least 1, was " + partitions);
    }
    TemporaryDirectory logDir = TemporaryDirectory.create("matview-test-kafka-");
    try {
      KraftBroker broker =
          new KraftBroker(
              0, 0, logDir.path(), Map.of("num.partitions", Integer.toString(partitions)));
      broker.start();
      return new TestBroker(logDir, broker);
    } catch (RuntimeException ex) {
      logDir.close();
      throw ex;
    }
  }

  /** The address that clients connect to. */
  String bootstrapServers() {
    return this.broker.bootstrapServers();
  }

  /** Stops the broker and waits until it has, then removes its directory. */
  @Override
  public void close() {
    try {
      this.broker.close();
    } finally {
      this.logDir.close();
    }
  }
}
