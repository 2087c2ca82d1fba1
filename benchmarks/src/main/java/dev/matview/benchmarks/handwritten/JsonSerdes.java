package dev.matview.benchmarks.handwritten;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import tools.jackson.databind.json.JsonMapper;

/** The JSON serdes of the hand-written apps' topologies. */
final class JsonSerdes {

  private JsonSerdes() {}

  /** A serde that writes and reads {@code type} as JSON with {@code json}. */
  static <T> Serde<T> of(JsonMapper json, Class<T> type) {
    Serializer<T> serializer = (topic, value) -> json.writeValueAsBytes(value);
    Deserializer<T> deserializer = (topic, bytes) -> json.readValue(bytes, type);
    return Serdes.serdeFrom(serializer, deserializer);
  }
}
