package dev.matview.replica;

/**
 * What wakes a read that waits for a store partition here to move on: it has applied more, its
 * store closed, or, when none was open, Kafka Streams opened one. The read then asks again.
 */
@FunctionalInterface
public interface PartitionProgress {

  /** Progress that never wakes anyone: a read that waits on it asks again on its own schedule. */
  PartitionProgress NONE = (wake) -> () -> {};

  /**
   * Calls {@code wake} at most once, on the thread that moved the partition (a stream thread: it
   * must hand its work to another), at once when the partition has already moved on.
   */
  Wait await(Runnable wake);

  /** One read's wait; forget it when the wait ends for another reason. */
  @FunctionalInterface
  interface Wait {

    /** Ends the wait without waking it. */
    void forget();
  }
}
