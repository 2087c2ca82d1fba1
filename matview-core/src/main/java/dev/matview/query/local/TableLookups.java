package dev.matview.query.local;

import dev.matview.replica.ReplicaHandle;
import dev.matview.replica.StoreHandles;
import dev.matview.topology.ResolvedView;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.jspecify.annotations.Nullable;

/**
 * Reads a table view's key in one partition here: from the partition's open store once it is known
 * to run (through Kafka Streams until then, and while the record cache holds an update of the key
 * that RocksDB lacks), or as the partition's last committed transaction left it.
 */
final class TableLookups {

  private final LocalRefusals refusals;

  private final StoreHandles handles;

  private final StoreTopics storeTopics;

  TableLookups(LocalRefusals refusals, StoreHandles handles, StoreTopics storeTopics) {
    this.refusals = refusals;
    this.handles = handles;
    this.storeTopics = storeTopics;
  }

  /**
   * The value of {@code key} in {@code partition}, or {@code null}, committed if {@code committed}.
   */
  <K> @Nullable Object get(
      ResolvedView<K, ?, ?> view, K key, int partition, boolean runningActive, boolean committed) {
    ReplicaHandle handle = this.handles.handle(view.storeName(), partition);
    try {
      if (handle == null) {
        Object value = tableStore(view, key, partition, runningActive).get(key);
        if (committed) {
          throw new InvalidStateStoreException("Its store has not registered its committed state");
        }
        return value;
      }
      long readiness = handle.readiness();
      if (runningActive && !ReplicaHandle.isReady(readiness)) {
        Object value = tableStore(view, key, partition, true).get(key);
        handle.markReady(readiness);
        if (!committed) {
          return value;
        }
      }
      String topic = this.storeTopics.apply(view);
      byte[] serialized = view.serializedKey(topic, key);
      if (committed) {
        return StoredEntries.value(view, topic, handle.committedGet(serialized));
      }
      if (handle.isUnwritten(serialized)) {
        return tableStore(view, key, partition, runningActive).get(key);
      }
      return StoredEntries.value(view, topic, handle.get(serialized));
    } catch (InvalidStateStoreException ex) {
      throw this.refusals.notServing(view, key, partition, ex);
    }
  }

  /**
   * One partition of a table view's store, through the store API rather than IQv2: Kafka 4.1.2's
   * IQv2 key and range queries of RocksDB key-value stores can deadlock with the stream thread
   * (KAFKA-19629). Only a running active replica answers unless {@code runningActive} is false.
   */
  <K> ReadOnlyKeyValueStore<K, Object> tableStore(
      ResolvedView<K, ?, ?> view, @Nullable Object key, int partition, boolean runningActive) {
    KafkaStreams kafkaStreams = this.refusals.running(view, key, partition);
    StoreQueryParameters<ReadOnlyKeyValueStore<K, Object>> parameters =
        StoreQueryParameters.fromNameAndType(
                view.storeName(), QueryableStoreTypes.<K, Object>keyValueStore())
            .withPartition(partition);
    try {
      return kafkaStreams.store(runningActive ? parameters : parameters.enableStaleStores());
    } catch (InvalidStateStoreException ex) {
      throw this.refusals.notServing(view, key, partition, ex);
    }
  }
}
