package dev.matview.query.local;

import dev.matview.position.InputRecord;
import dev.matview.position.ReadBound;
import dev.matview.position.ViewPosition;
import dev.matview.query.answer.Refusal;
import dev.matview.replica.AppliedOffset;
import dev.matview.replica.CommittedOffsets;
import dev.matview.replica.ReplicaHandle;
import dev.matview.replica.StoreHandles;
import dev.matview.replica.StorePositions;
import dev.matview.topology.ResolvedView;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * How far this instance's replicas of the views' store partitions have applied their topics:
 * whether one has applied what a caller's {@link ReadBound} asks for, and the position an answer
 * read from one carries.
 */
public final class LocalPositions {

  private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

  private final StoreHandles handles;

  private final StorePositions positions;

  private final @Nullable SourceRecords sources;

  private final ReadIsolation isolation;

  private final BoundRecords records;

  /** Positions of the store partitions of {@code handles}, records asked of {@code sources}. */
  LocalPositions(StoreHandles handles, @Nullable SourceRecords sources, ReadIsolation isolation) {
    this.handles = handles;
    this.positions = handles.positions();
    this.sources = sources;
    this.isolation = isolation;
    this.records = new BoundRecords(sources);
  }

  /** {@code null} when the replica here has applied all {@code bound} asks, else how far it is. */
  public @Nullable Refusal behind(
      ResolvedView<?, ?, ?> view,
      @Nullable Object key,
      int partition,
      ReadBound bound,
      boolean active) {
    if (!bound.isBound()) {
      return null;
    }
    ViewPosition position = bound.position();
    long required = (position != null) ? position.offset(partition) : AppliedOffset.NONE;
    AppliedOffset offset = this.positions.of(view.storeName(), partition);
    if (offset == null) {
      return refusal(
          view,
          key,
          partition,
          "this instance has not opened its store yet, so it cannot tell whether it has applied the"
              + " position or the records asked for",
          new Refusal.Behind(
              this.positions.progress(view.storeName(), partition, required),
              AppliedOffset.NONE,
              required,
              true));
    }
    SeenOffsets seen =
        new SeenOffsets(
            offset,
            active ? committed(view, partition, bound) : null,
            (needed) -> this.positions.progress(view.storeName(), partition, needed));
    long applied = seen.applied();
    String state = seen.state();
    if (required > applied) {
      return refusal(
          view,
          key,
          partition,
          "its replica here has "
              + state
              + " its topic up to offset "
              + applied
              + ", the position asked for needs offset "
              + required,
          seen.behind(required, false));
    }
    boolean rekeyed = view.definition().isRekeyed();
    for (InputRecord record : bound.records()) {
      this.records.requireOfSource(view, record);
      if (rekeyed) {
        long reached = seen.inputApplied(record.partition());
        if (reached < record.offset() && !followed(view, record, partition, applied, active)) {
          return refusal(
              view,
              key,
              partition,
              "its replica here has "
                  + state
                  + " records of partition "
                  + record.partition()
                  + " of '"
                  + record.topic()
                  + "' up to offset "
                  + reached
                  + " through the repartition topic, "
                  + record
                  + " is not yet known to be in",
              seen.behind(applied + 1, true));
        }
      } else if (record.partition() == partition && record.offset() > applied) {
        return refusal(
            view,
            key,
            partition,
            "its replica here has "
                + state
                + " '"
                + record.topic()
                + "' up to offset "
                + applied
                + ", the record at offset "
                + record.offset()
                + " ("
                + record
                + ") is not in yet",
            seen.behind(record.offset(), false));
      }
    }
    return null;
  }

  /** How far the active replica here had applied when it last committed, for a committed read. */
  private @Nullable CommittedOffsets committed(
      ResolvedView<?, ?, ?> view, int partition, ReadBound bound) {
    if (!this.isolation.committed(view, bound)) {
      return null;
    }
    ReplicaHandle handle = this.handles.handle(view.storeName(), partition);
    return (handle != null) ? handle.committedOffsets() : CommittedOffsets.NONE;
  }

  /**
   * {@code refusal}, of this instance's active replica of {@code partition} that cannot answer for
   * now (it restores, is not caught up, or its store closed under the read), as a bound read waits
   * for it: woken when the replica moves on or a store opens for it, and asking again every poll,
   * until the bound's wait is over; an unbound read's refusal as it is.
   */
  public Refusal waitable(Refusal refusal, int partition, ReadBound bound, String storeName) {
    if (!bound.isBound() || refusal.behind() != null) {
      return refusal;
    }
    AppliedOffset offset = this.positions.of(storeName, partition);
    long applied = (offset != null) ? offset.applied() : AppliedOffset.NONE;
    return refusal.waitingOn(
        new Refusal.Behind(
            this.positions.progress(storeName, partition, applied + 1),
            applied,
            applied + 1,
            true));
  }

  /** Refuses a bound whose records of another topic than the view's source no read can hold. */
  public void requireReadable(ResolvedView<?, ?, ?> view, ReadBound bound) {
    for (InputRecord record : bound.records()) {
      this.records.requireOfSource(view, record);
    }
  }

  /**
   * Completes once the records {@code bound} names are known written; fails naming one that is not.
   */
  public CompletableFuture<Void> written(ResolvedView<?, ?, ?> view, ReadBound bound) {
    return this.records.written(view, bound);
  }

  /**
   * The position an answer just read from this instance's replica of {@code partition} carries: at
   * least as new as what it read. A running active replica tells the record whose processing began
   * last; another, Kafka's own position of the store, which a restore moves before it writes.
   */
  public @Nullable ViewPosition position(
      ResolvedView<?, ?, ?> view, int partition, boolean runningActive, ReadBound bound) {
    AppliedOffset offset = this.positions.of(view.storeName(), partition);
    if (offset == null) {
      return null;
    }
    CommittedOffsets committed = runningActive ? committed(view, partition, bound) : null;
    long at =
        (committed != null)
            ? committed.applied()
            : runningActive ? offset.begun() : Math.max(offset.begun(), offset.storePosition());
    return (at >= 0)
        ? ViewPosition.of(view.name(), partition, at)
        : ViewPosition.empty(view.name());
  }

  /** Whether the broker tells that {@code partition} of the re-keyed view holds {@code record}. */
  private boolean followed(
      ResolvedView<?, ?, ?> view, InputRecord record, int partition, long applied, boolean active) {
    SourceRecords known = this.sources;
    return known != null && known.rekeyedHolds(view, record, partition, applied, active);
  }

  private static Refusal refusal(
      ResolvedView<?, ?, ?> view,
      @Nullable Object key,
      int partition,
      String why,
      Refusal.@Nullable Behind behind) {
    return new Refusal(
        Refusal.Reason.BEHIND,
        view.name(),
        key,
        partition,
        "Partition " + partition + " of view '" + view.name() + "' cannot answer yet: " + why,
        RETRY_AFTER,
        behind);
  }
}
