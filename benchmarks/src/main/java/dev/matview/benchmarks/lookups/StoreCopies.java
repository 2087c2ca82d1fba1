package dev.matview.benchmarks.lookups;

import dev.matview.replica.ReplicaHandle;
import dev.matview.replica.StoreHandles;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.awaitility.Awaitility;
import org.jspecify.annotations.Nullable;

/**
 * Two copies of a table view's store, for row 2 to time the read of one key in each: one in Kafka
 * Streams' own RocksDB store, whose {@code get} is synchronized, read by {@code get} and through
 * Kafka Streams' interactive queries, one in Matview's, read by handle as a lookup reads it. A
 * Kafka Streams of their own, in the benchmark's JVM, reads the view's changelog into both, one
 * update after the other, with the app's RocksDB config setter and bound, neither cached nor
 * logged: each partition of both then holds the bytes that the view's store holds, written and
 * flushed alike.
 */
final class StoreCopies implements AutoCloseable {

  private static final String KAFKAS = "kafka-copy";

  private static final String MATVIEWS = "matview-copy";

  private static final String MATVIEW_ROCKSDB_CONFIGS = "matview.rocksdb.";

  private final KafkaStreams streams;

  private final List<KeyValueStore<Bytes, byte[]>> kafkas;

  private final StoreHandles matviews;

  private StoreCopies(
      KafkaStreams streams, List<KeyValueStore<Bytes, byte[]>> kafkas, StoreHandles matviews) {
    this.streams = streams;
    this.kafkas = kafkas;
    this.matviews = matviews;
  }

  /**
   * Starts copying {@code changelog}, the changelog topic of a view of the app whose Kafka Streams
   * runs with {@code appConfig}.
   */
  static StoreCopies start(Properties appConfig, String changelog) {
    List<KeyValueStore<Bytes, byte[]>> kafkas = new CopyOnWriteArrayList<>();
    StoreHandles matviews = new StoreHandles();
    StreamsBuilder builder = new StreamsBuilder();
    builder
        .table(
            changelog, Consumed.with(Serdes.Bytes(), Serdes.ByteArray()), copy(capturing(kafkas)))
        .toStream()
        .toTable(copy(matviews.keyValueStore(MATVIEWS, (keyBytes, valueBytes) -> {})));
    KafkaStreams streams = new KafkaStreams(builder.build(), config(appConfig));
    streams.start();
    return new StoreCopies(streams, kafkas, matviews);
  }

  /** Kafka's store partition that holds {@code key} as the view's store does, {@code stored}. */
  KeyValueStore<Bytes, byte[]> kafkasHolding(Bytes key, byte[] stored) {
    return await(
        key,
        () -> {
          for (KeyValueStore<Bytes, byte[]> store : this.kafkas) {
            if (store.isOpen() && Arrays.equals(store.get(key), stored)) {
              return store;
            }
          }
          return null;
        });
  }

  /**
   * A read of {@code key} through Kafka Streams' interactive queries (IQv2's {@code KeyQuery}) in
   * partition {@code partition} of Kafka's copy, as an application of Kafka Streams alone reads its
   * store: through the store's monitor up to Kafka 4.3, through a {@code ReadOnlyView} without it
   * from 4.4.
   */
  Function<Bytes, byte @Nullable []> interactiveQueries(int partition) {
    Set<Integer> partitions = Set.of(partition);
    return (key) -> {
      StateQueryResult<byte[]> result =
          this.streams.query(
              StateQueryRequest.inStore(KAFKAS)
                  .withQuery(KeyQuery.<Bytes, byte[]>withKey(key))
                  .withPartitions(partitions));
      QueryResult<byte[]> answer = result.getPartitionResults().get(partition);
      if (answer == null || !answer.isSuccess()) {
        throw new IllegalStateException("IQv2 did not read " + key + ": " + answer);
      }
      return answer.getResult();
    };
  }

  /** The handle of Matview's store partition that holds {@code key} as {@code stored}. */
  ReplicaHandle matviewsHolding(Bytes key, byte[] stored, int partition) {
    return await(
        key,
        () -> {
          ReplicaHandle handle = this.matviews.handle(MATVIEWS, partition);
          return (handle != null && Arrays.equals(handle.get(key.get()), stored)) ? handle : null;
        });
  }

  @Override
  public void close() {
    this.streams.close(Duration.ofSeconds(30));
  }

  private <T> T await(Bytes key, Supplier<@Nullable T> holding) {
    return Awaitility.await("the copies of " + key)
        .atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofMillis(100))
        .ignoreException(InvalidStateStoreException.class)
        .until(
            () -> (this.streams.state() == KafkaStreams.State.RUNNING) ? holding.get() : null,
            (found) -> found != null);
  }

  private static Materialized<Bytes, byte[], KeyValueStore<Bytes, byte[]>> copy(
      KeyValueBytesStoreSupplier supplier) {
    return Materialized.<Bytes, byte[]>as(supplier)
        .withKeySerde(Serdes.Bytes())
        .withValueSerde(Serdes.ByteArray())
        .withCachingDisabled()
        .withLoggingDisabled();
  }

  private static Properties config(Properties appConfig) {
    String applicationId = appConfig.getProperty(StreamsConfig.APPLICATION_ID_CONFIG) + "-copies";
    Properties config = new Properties();
    config.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    config.put(
        StreamsConfig.BOOTSTRAP_SERVERS_CONFIG,
        appConfig.get(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG));
    config.put(
        StreamsConfig.STATE_DIR_CONFIG,
        appConfig.getProperty(StreamsConfig.STATE_DIR_CONFIG) + "-copies");
    config.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
    appConfig.forEach(
        (name, value) -> {
          String key = name.toString();
          if (key.equals(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG)
              || key.startsWith(MATVIEW_ROCKSDB_CONFIGS)) {
            config.put(key, value);
          }
        });
    return config;
  }

  /** Kafka's timestamped RocksDB stores, each kept in {@code stores} as Kafka Streams makes it. */
  private static KeyValueBytesStoreSupplier capturing(List<KeyValueStore<Bytes, byte[]>> stores) {
    KeyValueBytesStoreSupplier kafkas = Stores.persistentTimestampedKeyValueStore(KAFKAS);
    return new KeyValueBytesStoreSupplier() {
      @Override
      public String name() {
        return kafkas.name();
      }

      @Override
      public KeyValueStore<Bytes, byte[]> get() {
        KeyValueStore<Bytes, byte[]> store = kafkas.get();
        stores.add(store);
        return store;
      }

      @Override
      public String metricsScope() {
        return kafkas.metricsScope();
      }
    };
  }
}
