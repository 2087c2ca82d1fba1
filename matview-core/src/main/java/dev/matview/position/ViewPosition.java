package dev.matview.position;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * How far the replicas that answered had applied the topic that feeds a view's store, by partition:
 * the offset of the last record of that partition in the answer, for each partition the answer
 * read. The topic is the view's source topic, or its repartition topic when the view re-keys.
 * Positions of one view merge by keeping the larger offset of each partition.
 */
public final class ViewPosition {

  private final String view;

  private final int[] partitions;

  private final long[] offsets;

  private ViewPosition(String view, int[] partitions, long[] offsets) {
    this.view = view;
    this.partitions = partitions;
    this.offsets = offsets;
  }

  /** A position of {@code view} that says nothing of any partition. */
  public static ViewPosition empty(String view) {
    return new ViewPosition(view, new int[0], new long[0]);
  }

  /** The position of one partition of {@code view}. */
  public static ViewPosition of(String view, int partition, long offset) {
    requireValid(partition, offset);
    return new ViewPosition(view, new int[] {partition}, new long[] {offset});
  }

  /** The position of {@code view} with these offsets by partition. */
  public static ViewPosition of(String view, Map<Integer, Long> offsets) {
    TreeMap<Integer, Long> sorted = new TreeMap<>(offsets);
    int[] partitions = new int[sorted.size()];
    long[] values = new long[sorted.size()];
    int i = 0;
    for (Map.Entry<Integer, Long> entry : sorted.entrySet()) {
      requireValid(entry.getKey(), entry.getValue());
      partitions[i] = entry.getKey();
      values[i] = entry.getValue();
      i++;
    }
    return new ViewPosition(view, partitions, values);
  }

  private static void requireValid(int partition, long offset) {
    if (partition < 0 || offset < 0) {
      throw new IllegalArgumentException(
          "A position names a partition and an offset of 0 or more, was "
              + partition
              + ":"
              + offset);
    }
  }

  /** The view whose store this position is of. */
  public String view() {
    return this.view;
  }

  /** How many partitions it names. */
  public int size() {
    return this.partitions.length;
  }

  /** Whether it names no partition. */
  public boolean isEmpty() {
    return this.partitions.length == 0;
  }

  /** The {@code index}-th partition it names, in ascending order. */
  public int partitionAt(int index) {
    return this.partitions[index];
  }

  /** The offset of the {@code index}-th partition it names. */
  public long offsetAt(int index) {
    return this.offsets[index];
  }

  /** The offset it names for {@code partition}, or -1 when it names none. */
  public long offset(int partition) {
    int index = Arrays.binarySearch(this.partitions, partition);
    return (index >= 0) ? this.offsets[index] : -1;
  }

  /** This position and {@code other}, a position of the same view, with the larger of each. */
  public ViewPosition merge(ViewPosition other) {
    if (!other.view.equals(this.view)) {
      throw new IllegalArgumentException(
          "Positions of views '" + this.view + "' and '" + other.view + "' do not merge");
    }
    if (other.isEmpty()) {
      return this;
    }
    if (isEmpty()) {
      return other;
    }
    TreeMap<Integer, Long> merged = new TreeMap<>();
    for (int i = 0; i < this.partitions.length; i++) {
      merged.put(this.partitions[i], this.offsets[i]);
    }
    for (int i = 0; i < other.partitions.length; i++) {
      merged.merge(other.partitions[i], other.offsets[i], Math::max);
    }
    return of(this.view, merged);
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof ViewPosition position
        && position.view.equals(this.view)
        && Arrays.equals(position.partitions, this.partitions)
        && Arrays.equals(position.offsets, this.offsets);
  }

  @Override
  public int hashCode() {
    return this.view.hashCode() * 31 + Arrays.hashCode(this.offsets);
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder(this.view).append('[');
    for (int i = 0; i < this.partitions.length; i++) {
      text.append(i > 0 ? ", " : "").append(this.partitions[i]).append(':').append(this.offsets[i]);
    }
    return text.append(']').toString();
  }
}
