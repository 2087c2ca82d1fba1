package dev.matview.benchmarks.kafka;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;

/** The settings of the benchmarks' producers of string keys and values. */
public final class StringProducers {

  private StringProducers() {}

  /**
   * A producer's settings: {@code bootstrapServers}, string serializers for keys and values, and
   * {@code settings}.
   */
  public static Map<String, Object> settings(
      String bootstrapServers, Map<String, Object> settings) {
    Map<String, Object> all = new HashMap<>(settings);
    all.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    all.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    all.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    return all;
  }
}
