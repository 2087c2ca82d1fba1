package dev.matview.autoconfigure;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.springframework.kafka.config.KafkaStreamsConfiguration;

/** The limits of Kafka Streams' producers, read from the streams configuration as they apply. */
final class ProducerLimits {

  private ProducerLimits() {}

  /**
   * The {@code max.request.size} of a producer that Kafka Streams configures for {@code clientId}:
   * the producer's default, the streams configuration's value or its {@code producer.} override.
   */
  static int maxRequestSize(KafkaStreamsConfiguration streams, String clientId) {
    Map<String, Object> configs =
        new HashMap<>(new StreamsConfig(streams.asProperties()).getProducerConfigs(clientId));
    configs.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    configs.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    return new ProducerConfig(configs).getInt(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
  }
}
