package dev.matview.replica;

import org.apache.kafka.streams.processor.StateStore;

/** One open partition of a store that the {@link StoreHandles} hold until Kafka closes it. */
interface PartitionHandle {

  /** The partition held. */
  int partition();

  /** Kafka's bytes store of the partition, below the record cache. */
  StateStore store();
}
