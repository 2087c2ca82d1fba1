package dev.matview.replica;

import java.util.Collection;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.internals.ChangelogRecordDeserializationHelper;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.query.Position;

/**
 * Restores a {@link RocksDBKeyValueStore} from its changelog: each batch of records Kafka Streams
 * reads in one RocksDB write batch, then the store's position moved to the position the records'
 * headers carry (KIP-796), by which a standby and a restoring replica know how far their store has
 * applied its topic.
 *
 * <p>Kafka Streams passes those headers only to its {@code RecordBatchingStateRestoreCallback}, and
 * reads them with its {@code ChangelogRecordDeserializationHelper}: both internal to Kafka Streams,
 * and the one reach past its public API that this store makes (the public {@code
 * BatchingStateRestoreCallback} gets keys and values alone). This fails to compile, not silently,
 * when a Kafka Streams version changes them, and {@code RocksDBKeyValueStoreTests} fails when the
 * headers no longer move the position. An application that runs on a Kafka Streams release whose
 * internals changed still starts and restores ({@link RestoreCallbacks}): its restored replicas
 * then know no position until they process records, so reads bound to a position wait for it, and a
 * warning says why.
 */
final class ChangelogRestore implements RecordBatchingStateRestoreCallback {

  private final String storeName;

  private final Supplier<KeyValueRocksDB> database;

  private final Position position;

  private final boolean positionsInChangelog;

  /**
   * Restores into the database that {@code database} supplies, moving {@code position}, in an
   * application configured with {@code configs}.
   */
  ChangelogRestore(
      String storeName,
      Supplier<KeyValueRocksDB> database,
      Position position,
      Map<String, Object> configs) {
    this.storeName = storeName;
    this.database = database;
    this.position = position;
    this.positionsInChangelog =
        StreamsConfig.InternalConfig.getBoolean(
            configs, StreamsConfig.InternalConfig.IQ_CONSISTENCY_OFFSET_VECTOR_ENABLED, false);
  }

  @Override
  public void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> records) {
    Position restored = Position.emptyPosition();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      ChangelogRecordDeserializationHelper.applyChecksAndUpdatePosition(
          record, this.positionsInChangelog, restored);
    }
    RestoreCallbacks.write(
        this.storeName, this.database.get(), records, ConsumerRecord::key, ConsumerRecord::value);
    this.position.merge(restored);
  }
}
