package dev.matview.benchmarks.app;

import dev.matview.query.ViewQueryService;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
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

  BaselineController(ViewQueryService views, StreamsBuilderFactoryBean streams) {
    this.views = views;
    this.streams = streams;
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
    if (this.views.view(view).window() == null) {
      try (KeyValueIterator<Object, Object> all = tableStore(view).all()) {
        while (all.hasNext()) {
          count += (all.next().value != null) ? 1 : 0;
        }
      }
    } else {
      ReadOnlyWindowStore<Object, Object> store =
          kafkaStreams()
              .store(
                  StoreQueryParameters.fromNameAndType(
                      this.views.view(view).storeName(), QueryableStoreTypes.windowStore()));
      try (KeyValueIterator<Windowed<Object>, Object> all = store.all()) {
        while (all.hasNext()) {
          count += (all.next().value != null) ? 1 : 0;
        }
      }
    }
    return Map.of("keys", count, "nanos", System.nanoTime() - started);
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
