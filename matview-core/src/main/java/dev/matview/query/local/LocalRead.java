package dev.matview.query.local;

import dev.matview.query.answer.Replica;

/**
 * Reads one partition of this instance's store.
 *
 * @param <T> the answer
 */
@FunctionalInterface
public interface LocalRead<T> {

  /** Reads {@code partition}: only from a running active replica when {@code exact}. */
  T read(int partition, Replica replica, boolean exact);
}
