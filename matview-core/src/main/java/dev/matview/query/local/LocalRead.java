package dev.matview.query.local;

import dev.matview.query.answer.Replica;

/**
 * Reads one partition of this instance's store.
 *
 * @param <T> the answer
 */
@FunctionalInterface
public interface LocalRead<T> {

  /**
   * Reads {@code partition}, which {@code replica} answers; only from a replica Kafka Streams runs
   * as active when {@code exact}, else from this instance's replica whatever its state.
   */
  T read(int partition, Replica replica, boolean exact);
}
