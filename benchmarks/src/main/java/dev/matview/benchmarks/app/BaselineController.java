package dev.matview.benchmarks.app;

import dev.matview.query.ViewQueryService;
import dev.matview.replica.ReplicaHandle;
import dev.matview.replica.StoreHandles;
import dev.matview.replica.WindowHandle;
import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewWindow;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlySessionStore;
import org.apache.kafka.streams.state.WindowStore;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The baselines inside the benchmark app: key lookups answered from a {@code ConcurrentHashMap}
 * filled with a view's local values, and raw ranges over a view's local stores.
 */
@RestController
class BaselineController {

  private final Map<String, Map<String, Object>> maps = new ConcurrentHashMap<>();

  private final ViewQueryService views;

  private final StreamsBuilderFactoryBean streams;

  private final StoreHandles handles;

  BaselineController(
      ViewQueryService views, StreamsBuilderFactoryBean streams, StoreHandles handles) {
    this.views = views;
    this.streams = streams;
    this.handles = handles;
  }

  /** Copies every local value of a table view into the baseline's map, and tells how many. */
  @PostMapping(path = "/baseline/{view}/fill", produces = MediaType.APPLICATION_JSON_VALUE)
  Map<String, Long> fill(@PathVariable String view) {
    Map<String, Object> map = new ConcurrentHashMap<>();
    long count = 0;
    try (KeyValueIterator<Object, Object> all = tableStore(view).all()) {
      while (all.hasNext()) {
        KeyValue<Object, Object> next = all.next();
        map.put(String.valueOf(next.key), next.value);
        count++;
      }
    }
    this.maps.put(view, map);
    return Map.of("keys", count);
  }

  /** The same JSON and headers as Matview's key lookup, from the baseline's map. */
  @GetMapping(path = "/baseline/{view}/keys/{key}", produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<?> key(@PathVariable String view, @PathVariable String key) {
    Map<String, Object> map = this.maps.getOrDefault(view, Map.of());
    Object value = map.get(key);
    if (value == null) {
      return ResponseEntity.status(HttpStatus.NOT_FOUND).build();
    }
    return ResponseEntity.ok()
        .header("Matview-Served-By", "127.0.0.1:0")
        .header("Matview-Replica", "active")
        .header("Matview-Offset-Lag", "0")
        .body(new Entry(key, value));
  }

  /** Reads every key of the view's local stores, and tells how many and how long it took. */
  @GetMapping(path = "/baseline/{view}/raw-scan", produces = MediaType.APPLICATION_JSON_VALUE)
  Map<String, Long> rawScan(@PathVariable String view) {
    long started = System.nanoTime();
    long count = 0;
    ResolvedView<?, ?, ?> resolved = this.views.view(view);
    ViewWindow window = resolved.window();
    if (window == null || window.type() != ViewWindow.Type.SESSION) {
      Properties config = Objects.requireNonNull(this.streams.getStreamsConfiguration());
      String topic =
          resolved.changelogTopic(config.getProperty(StreamsConfig.APPLICATION_ID_CONFIG));
      for (int partition : activePartitions()) {
        if (window == null) {
          ReplicaHandle handle = this.handles.handle(resolved.storeName(), partition);
          count += (handle != null) ? rawCount(resolved, topic, handle.store().all()) : 0;
        } else {
          WindowHandle<WindowStore<Bytes, byte[]>> handle =
              this.handles.windowHandle(resolved.storeName(), partition);
          count += (handle != null) ? rawWindowCount(resolved, topic, handle) : 0;
        }
      }
    } else {
      ReadOnlySessionStore<Object, Object> store =
          kafkaStreams()
              .store(
                  StoreQueryParameters.fromNameAndType(
                      resolved.storeName(), QueryableStoreTypes.sessionStore()));
      try (KeyValueIterator<Windowed<Object>, Object> all = store.fetch(null, null)) {
        while (all.hasNext()) {
          count += (all.next().value != null) ? 1 : 0;
        }
      }
    }
    return Map.of("keys", count, "nanos", System.nanoTime() - started);
  }

  /**
   * Every key and value of one partition's RocksDB store, read as Kafka Streams' own store API
   * reads them (the key, and the aggregate past the 8-byte timestamp), without the record cache
   * that Matview's scans skip once it holds nothing unwritten.
   */
  private static long rawCount(
      ResolvedView<?, ?, ?> view, String topic, KeyValueIterator<Bytes, byte[]> all) {
    long count = 0;
    try (all) {
      while (all.hasNext()) {
        KeyValue<Bytes, byte[]> next = all.next();
        count += isEntry(view, topic, next.key.get(), next.value) ? 1 : 0;
      }
    }
    return count;
  }

  /** Every window of one partition's RocksDB window store, read as {@link #rawCount} reads keys. */
  private static long rawWindowCount(
      ResolvedView<?, ?, ?> view, String topic, WindowHandle<WindowStore<Bytes, byte[]>> handle) {
    long count = 0;
    try (KeyValueIterator<Windowed<Bytes>, byte[]> all = handle.store().all()) {
      while (all.hasNext()) {
        KeyValue<Windowed<Bytes>, byte[]> next = all.next();
        count += isEntry(view, topic, next.key.key().get(), next.value) ? 1 : 0;
      }
    }
    return count;
  }

  /** Whether a stored key and value read back as a key and an aggregate. */
  private static boolean isEntry(
      ResolvedView<?, ?, ?> view, String topic, byte[] key, byte[] value) {
    Object readKey = view.keySerde().deserializer().deserialize(topic, key);
    Object aggregate =
        view.aggregateSerde()
            .deserializer()
            .deserialize(topic, Arrays.copyOfRange(value, Long.BYTES, value.length));
    return readKey != null && aggregate != null;
  }

  /** The partitions of this instance's active tasks. */
  private Set<Integer> activePartitions() {
    Set<Integer> partitions = new TreeSet<>();
    for (ThreadMetadata thread : kafkaStreams().metadataForLocalThreads()) {
      for (TaskMetadata task : thread.activeTasks()) {
        partitions.add(task.taskId().partition());
      }
    }
    return partitions;
  }

  private ReadOnlyKeyValueStore<Object, Object> tableStore(String view) {
    return kafkaStreams()
        .store(
            StoreQueryParameters.fromNameAndType(
                this.views.view(view).storeName(), QueryableStoreTypes.keyValueStore()));
  }

  private KafkaStreams kafkaStreams() {
    KafkaStreams kafkaStreams = this.streams.getKafkaStreams();
    if (kafkaStreams == null) {
      throw new IllegalStateException("Kafka Streams has not started");
    }
    return kafkaStreams;
  }

  /**
   * One key and its value, written as Matview writes them.
   *
   * @param key the key
   * @param value its value
   */
  record Entry(Object key, Object value) {}
}
