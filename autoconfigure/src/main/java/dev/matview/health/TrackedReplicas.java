package dev.matview.health;

import dev.matview.query.LocalReplicas;
import dev.matview.query.Replica;
import org.jspecify.annotations.Nullable;

/** Tells the lag of this instance's replicas from what the restore lag tracker saw. */
public final class TrackedReplicas implements LocalReplicas {

  private final RestoreLagTracker tracker;

  /** Replicas as {@code tracker} knows them. */
  public TrackedReplicas(RestoreLagTracker tracker) {
    this.tracker = tracker;
  }

  @Override
  public @Nullable State state(String store, int partition) {
    return this.tracker
        .lag(store, partition)
        .map(
            lag ->
                new State(
                    lag.isActive() ? Replica.Role.ACTIVE : Replica.Role.STANDBY,
                    lag.lag(),
                    lag.endOffset(),
                    lag.eta()))
        .orElse(null);
  }
}
