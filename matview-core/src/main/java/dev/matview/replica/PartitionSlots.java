package dev.matview.replica;

import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/**
 * One store's handles (or applied offsets) by partition, in an array replaced whole on each change.
 */
final class PartitionSlots<H> {

  private final ToIntFunction<H> partitionOf;

  private volatile @Nullable Object[] handles = new Object[0];

  PartitionSlots(ToIntFunction<H> partitionOf) {
    this.partitionOf = partitionOf;
  }

  @SuppressWarnings("unchecked")
  @Nullable H get(int partition) {
    @Nullable Object[] current = this.handles;
    return (partition >= 0 && partition < current.length) ? (H) current[partition] : null;
  }

  /** The sum of {@code measure} over the handles held. */
  @SuppressWarnings("unchecked")
  long sum(ToLongFunction<H> measure) {
    long sum = 0;
    for (Object handle : this.handles) {
      sum += (handle != null) ? measure.applyAsLong((H) handle) : 0;
    }
    return sum;
  }

  /** Tells {@code action} of each handle held. */
  @SuppressWarnings("unchecked")
  void forEach(Consumer<H> action) {
    for (Object handle : this.handles) {
      if (handle != null) {
        action.accept((H) handle);
      }
    }
  }

  synchronized void put(H handle) {
    int partition = this.partitionOf.applyAsInt(handle);
    @Nullable Object[] current = this.handles;
    @Nullable Object[] next = Arrays.copyOf(current, Math.max(current.length, partition + 1));
    next[partition] = handle;
    this.handles = next;
  }

  /** Empties the slot of {@code partition} if what it holds is {@code leaving}. */
  synchronized void remove(int partition, Predicate<H> leaving) {
    H held = get(partition);
    if (held != null && leaving.test(held)) {
      @Nullable Object[] next = this.handles.clone();
      next[partition] = null;
      this.handles = next;
    }
  }
}
