package dev.matview.benchmarks.handwritten;

import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** Answers a customer's order count as Matview's key lookup does, from Kafka Streams' store. */
@RestController
class HandWrittenLookupsController {

  private final KafkaStreams streams;

  HandWrittenLookupsController(KafkaStreams streams) {
    this.streams = streams;
  }

  /** The same JSON as Matview's lookup of the key; 404 when the store has no count for it. */
  @GetMapping(
      path = "/hand-written/" + HandWrittenLookupsApp.STORE + "/keys/{key}",
      produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<?> key(@PathVariable String key) {
    ReadOnlyKeyValueStore<String, Long> store =
        this.streams.store(
            StoreQueryParameters.fromNameAndType(
                HandWrittenLookupsApp.STORE, QueryableStoreTypes.<String, Long>keyValueStore()));
    Long count = store.get(key);
    if (count == null) {
      return ResponseEntity.status(HttpStatus.NOT_FOUND).build();
    }
    return ResponseEntity.ok().body(new Count(key, count));
  }

  /** A key and its count, as Matview writes a lookup's answer. */
  record Count(String key, long value) {}
}
