package dev.matview.benchmarks.handwritten;

import java.util.Set;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
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

  /**
   * The same answer through Kafka Streams' interactive queries (IQv2): a {@code KeyQuery} in the
   * key's partition, as Kafka Streams' guide has an application read its own store; up to Kafka 4.3
   * through the store's monitor, from 4.4 through a {@code ReadOnlyView} without it.
   */
  @GetMapping(
      path = "/hand-written/" + HandWrittenLookupsApp.STORE + "/iqv2/{key}",
      produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<?> interactiveQuery(@PathVariable String key) {
    KeyQueryMetadata metadata =
        this.streams.queryMetadataForKey(
            HandWrittenLookupsApp.STORE, key, Serdes.String().serializer());
    int partition = metadata.partition();
    StateQueryResult<Long> result =
        this.streams.query(
            StateQueryRequest.inStore(HandWrittenLookupsApp.STORE)
                .withQuery(KeyQuery.<String, Long>withKey(key))
                .withPartitions(Set.of(partition)));
    QueryResult<Long> answer = result.getPartitionResults().get(partition);
    if (answer == null || !answer.isSuccess()) {
      return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
          .body(
              (answer == null)
                  ? "no result of partition " + partition
                  : answer.getFailureReason() + ": " + answer.getFailureMessage());
    }
    Long count = answer.getResult();
    if (count == null) {
      return ResponseEntity.status(HttpStatus.NOT_FOUND).build();
    }
    return ResponseEntity.ok().body(new Count(key, count));
  }

  /** A key and its count, as Matview writes a lookup's answer. */
  record Count(String key, long value) {}
}
