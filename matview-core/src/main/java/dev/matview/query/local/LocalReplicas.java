package dev.matview.query.local;

import dev.matview.query.answer.Replica;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/** Tells how far this instance's replica of a store partition lags behind its changelog. */
@FunctionalInterface
public interface LocalReplicas {

  /** Knows no replica: every replica is taken as caught up. */
  LocalReplicas NONE = (store, partition) -> null;

  /** This instance's replica of {@code store}'s {@code partition}, or {@code null} if unknown. */
  @Nullable State state(String store, int partition);

  /**
   * A local replica's role and lag.
   *
   * @param role whether it is the active replica or a standby
   * @param lag changelog offsets still to apply; {@link Long#MAX_VALUE} while not known
   * @param endOffset one past the last changelog offset known, or negative while not known
   * @param eta estimated time until caught up, or {@code null}
   */
  record State(Replica.Role role, long lag, long endOffset, @Nullable Duration eta) {

    /** Whether the changelog's end, and so the lag, is known. */
    public boolean lagKnown() {
      return this.endOffset >= 0;
    }
  }
}
