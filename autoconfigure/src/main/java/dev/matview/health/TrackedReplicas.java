package dev.matview.health;

import dev.matview.query.answer.Replica;
import dev.matview.query.local.LocalReplicas;
import org.jspecify.annotations.Nullable;

/** Tells the lag of this instance's replicas from what the restore lag tracker saw. */
public final class TrackedReplicas implements LocalReplicas {

  private final RestoreLagTracker tracker;

  /** Replicas as {@code tracker} knows them. */
  public TrackedReplicas(RestoreLagTracker tracker) {
    this.tracker = tracker;
  }

  /**
   * The replica's live role and lag; an unknown lag is {@link Long#MAX_VALUE} and asks for a
   * report.
   */
  @Override
  public @Nullable State state(String store, int partition) {
    PartitionProgress progress = this.tracker.progress(store, partition);
    if (progress == null) {
      return null;
    }
    long lag = progress.lag();
    if (lag == PartitionLag.UNKNOWN) {
      this.tracker.lagWanted();
    }
    return new State(
        progress.role() == PartitionLag.Role.ACTIVE ? Replica.Role.ACTIVE : Replica.Role.STANDBY,
        lag == PartitionLag.UNKNOWN ? Long.MAX_VALUE : lag,
        progress.endOffset(),
        progress.eta());
  }
}
