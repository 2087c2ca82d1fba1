package dev.matview.query.local;

import dev.matview.query.answer.Refusal;
import dev.matview.replica.AppliedOffset;
import dev.matview.replica.CommittedOffsets;
import dev.matview.replica.PartitionProgress;
import java.util.function.LongFunction;
import org.jspecify.annotations.Nullable;

/**
 * How far a read of one store partition here sees its topic applied: as applied now, or, for a read
 * of committed state, as the partition's last commit left it; and what a read behind it waits for.
 *
 * @param offset the partition's applied offset now
 * @param committed what its last commit left, for a read of committed state; else {@code null}
 * @param progress what wakes a read that waits for the partition to apply an offset
 */
record SeenOffsets(
    AppliedOffset offset,
    @Nullable CommittedOffsets committed,
    LongFunction<PartitionProgress> progress) {

  /** The offset of the last record of the partition's topic that the read sees. */
  long applied() {
    return (this.committed != null) ? this.committed.applied() : this.offset.applied();
  }

  /** The offset of the last record of {@code partition} of the view's source topic it sees. */
  long inputApplied(int partition) {
    return (this.committed != null)
        ? this.committed.inputApplied(partition)
        : this.offset.inputApplied(partition);
  }

  /** What the read sees, in a refusal's words. */
  String state() {
    return (this.committed != null) ? "committed" : "applied";
  }

  /**
   * The partition behind {@code required}: a read of committed state that it has applied but not
   * yet committed asks again every poll, as no commit wakes it; any other waits until it applies
   * it, and polls too when {@code poll}.
   */
  Refusal.Behind behind(long required, boolean poll) {
    if (this.committed == null) {
      return new Refusal.Behind(
          this.progress.apply(required), this.offset.applied(), required, poll);
    }
    PartitionProgress wake =
        (this.offset.applied() >= required)
            ? PartitionProgress.NONE
            : this.progress.apply(required);
    return new Refusal.Behind(wake, this.committed.applied(), required, true);
  }
}
