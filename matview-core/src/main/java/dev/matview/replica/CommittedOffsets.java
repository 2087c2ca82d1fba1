package dev.matview.replica;

import java.util.Arrays;

/**
 * How far a store partition had applied its topic when its last transaction committed: what a read
 * of its committed state includes. For a re-keyed view, also how far it had applied each partition
 * of the view's source topic through the repartition topic. {@code applied} is the offset of the
 * last record applied, or {@link AppliedOffset#NONE}; {@code inputs}, by source partition, the
 * offset of its last record applied.
 */
public record CommittedOffsets(long applied, long[] inputs) {

  /** Nothing is known to be committed. */
  public static final CommittedOffsets NONE = new CommittedOffsets(AppliedOffset.NONE, new long[0]);

  /** How far {@code offset} has applied its topic now. */
  static CommittedOffsets of(AppliedOffset offset) {
    long applied = offset.applied();
    long[] inputs = new long[offset.inputPartitions()];
    for (int partition = 0; partition < inputs.length; partition++) {
      inputs[partition] = offset.inputApplied(partition);
    }
    return new CommittedOffsets(applied, inputs);
  }

  /** The offset of the last record of {@code partition} of the source topic applied, or none. */
  public long inputApplied(int partition) {
    return (partition < this.inputs.length) ? this.inputs[partition] : AppliedOffset.NONE;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CommittedOffsets that
        && this.applied == that.applied
        && Arrays.equals(this.inputs, that.inputs);
  }

  @Override
  public int hashCode() {
    return 31 * Long.hashCode(this.applied) + Arrays.hashCode(this.inputs);
  }

  @Override
  public String toString() {
    return "CommittedOffsets[applied="
        + this.applied
        + ", inputs="
        + Arrays.toString(this.inputs)
        + "]";
  }
}
