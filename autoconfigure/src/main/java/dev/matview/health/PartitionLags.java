package dev.matview.health;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * The store partitions this instance holds a replica of, each with its live progress, and the
 * listeners told when one starts or stops being tracked; a partition tracked anew replaces, and
 * drops, the one before it.
 */
final class PartitionLags {

  private static final Comparator<PartitionLag> ORDER =
      Comparator.comparing(PartitionLag::store).thenComparingInt(PartitionLag::partition);

  private final ConcurrentMap<StorePartition, PartitionProgress> partitions =
      new ConcurrentHashMap<>();

  private final List<RestoreLagTracker.Listener> listeners = new CopyOnWriteArrayList<>();

  /** Tracks {@code partition} of {@code store} from now on with {@code progress}. */
  void track(String store, int partition, PartitionProgress progress) {
    PartitionProgress previous =
        this.partitions.put(new StorePartition(store, partition), progress);
    if (previous != null) {
      PartitionLag replaced = previous.snapshot();
      this.listeners.forEach((listener) -> listener.dropped(replaced));
    }
    PartitionLag tracked = progress.snapshot();
    this.listeners.forEach((listener) -> listener.tracked(tracked));
  }

  /** Stops tracking {@code partition} of {@code store}; whether it was tracked. */
  boolean drop(String store, int partition) {
    PartitionProgress dropped = this.partitions.remove(new StorePartition(store, partition));
    if (dropped == null) {
      return false;
    }
    PartitionLag last = dropped.snapshot();
    this.listeners.forEach((listener) -> listener.dropped(last));
    return true;
  }

  /** The live progress of {@code partition} of {@code store}, or {@code null} if not tracked. */
  @Nullable PartitionProgress progress(String store, int partition) {
    return this.partitions.get(new StorePartition(store, partition));
  }

  /** The lag of {@code partition} of {@code store}, if it is tracked. */
  Optional<PartitionLag> lag(String store, int partition) {
    return Optional.ofNullable(progress(store, partition)).map(PartitionProgress::snapshot);
  }

  /** Every tracked partition, by store and partition. */
  List<PartitionLag> snapshot() {
    return this.partitions.values().stream()
        .map(PartitionProgress::snapshot)
        .sorted(ORDER)
        .toList();
  }

  /** Tells {@code listener} about every partition tracked or dropped from now on. */
  void addListener(RestoreLagTracker.Listener listener) {
    this.listeners.add(listener);
  }

  private record StorePartition(String store, int partition) {}
}
