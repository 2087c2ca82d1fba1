package dev.matview.autoconfigure;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.springframework.kafka.config.KafkaStreamsConfiguration;

/** The limits of Kafka Streams' producers, read from the streams configuration as they apply. */
final class ProducerLimits {

  private ProducerLimits() {}

  /** The {@code max.request.size} of the producer Kafka Streams configures for {@code clientId}. */
  static int maxRequestSize(KafkaStreamsConfiguration streams, String clientId) {
    Map<String, Object> configs =
        new HashMap<>(new StreamsConfig(streams.asProperties()).getProducerConfigs(clientId));
    configs.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    configs.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    return new ProducerConfig(configs).getInt(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
  }

  /**
   * The largest record Kafka Streams' producer may write to a changelog: its {@code
   * max.request.size}, or the internal topics' {@code topic.max.message.bytes} when smaller.
   */
  static int changelogRecordLimit(KafkaStreamsConfiguration streams, String clientId) {
    int limit = maxRequestSize(streams, clientId);
    Object topicLimit =
        new StreamsConfig(streams.asProperties())
            .originalsWithPrefix(StreamsConfig.TOPIC_PREFIX)
            .get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
    if (topicLimit == null) {
      return limit;
    }
    try {
      return Math.min(limit, Integer.parseInt(topicLimit.toString().trim()));
    } catch (NumberFormatException ex) {
      String property =
          "spring.kafka.streams.properties."
              + StreamsConfig.TOPIC_PREFIX
              + TopicConfig.MAX_MESSAGE_BYTES_CONFIG;
      throw new InvalidMatviewPropertyException(
          property,
          topicLimit,
          "it must be a whole number of bytes",
          "Set " + property + " to a number of bytes, for example 1048588");
    }
  }
}
