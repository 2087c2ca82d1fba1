package dev.matview.replica;

import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;
import org.apache.kafka.streams.processor.StateStore;
import org.jspecify.annotations.Nullable;

/**
 * One store's handles by partition, in an array replaced whole on each change.
 *
 * @param <H> the kind of handle
 */
final class PartitionSlots<H extends PartitionHandle> {

  private volatile @Nullable PartitionHandle[] handles = new PartitionHandle[0];

  @SuppressWarnings("unchecked")
  @Nullable H get(int partition) {
    @Nullable PartitionHandle[] current = this.handles;
    return (partition >= 0 && partition < current.length) ? (H) current[partition] : null;
  }

  /** The sum of {@code measure} over the handles held. */
  @SuppressWarnings("unchecked")
  long sum(ToLongFunction<H> measure) {
    long sum = 0;
    for (PartitionHandle handle : this.handles) {
      sum += (handle != null) ? measure.applyAsLong((H) handle) : 0;
    }
    return sum;
  }

  /** Tells {@code action} of each handle held. */
  @SuppressWarnings("unchecked")
  void forEach(Consumer<H> action) {
    for (PartitionHandle handle : this.handles) {
      if (handle != null) {
        action.accept((H) handle);
      }
    }
  }

  synchronized void put(H handle) {
    @Nullable PartitionHandle[] current = this.handles;
    @Nullable PartitionHandle[] next =
        Arrays.copyOf(current, Math.max(current.length, handle.partition() + 1));
    next[handle.partition()] = handle;
    this.handles = next;
  }

  synchronized void remove(int partition, StateStore store) {
    @Nullable PartitionHandle[] current = this.handles;
    PartitionHandle held = (partition < current.length) ? current[partition] : null;
    if (held != null && held.store() == store) {
      @Nullable PartitionHandle[] next = current.clone();
      next[partition] = null;
      this.handles = next;
    }
  }
}
