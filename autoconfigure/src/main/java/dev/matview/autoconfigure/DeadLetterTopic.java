package dev.matview.autoconfigure;

import dev.matview.deadletter.DeadLetters;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.kafka.streams.StreamsConfig;
import org.springframework.kafka.config.KafkaStreamsConfiguration;

/** The dead-letter topic's name and replication, from the properties and the streams settings. */
final class DeadLetterTopic {

  static final String PROPERTY = "matview.dead-letter.topic";

  private static final Pattern LEGAL = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

  private DeadLetterTopic() {}

  /**
   * The configured topic, else {@code <application-id>-dlq}, refusing an illegal name or a topic a
   * view reads.
   */
  static String name(MatviewProperties.DeadLetter properties, ViewRegistry registry) {
    String configured = properties.getTopic();
    String topic =
        (configured != null) ? configured : DeadLetters.defaultTopic(registry.applicationId());
    if (!LEGAL.matcher(topic).matches() || topic.equals(".") || topic.equals("..")) {
      throw new InvalidMatviewPropertyException(
          PROPERTY,
          topic,
          "it is no legal topic name",
          "Set "
              + PROPERTY
              + " to 1 to 249 characters among a-z, A-Z, 0-9, '.', '_' and '-', for example"
              + " orders-service-dlq");
    }
    for (ResolvedView<?, ?, ?> view : registry.all()) {
      if (view.sourceTopic().equals(topic)) {
        throw new InvalidMatviewPropertyException(
            PROPERTY,
            topic,
            "view '" + view.name() + "' reads this topic, so its dead letters would be read again",
            "Set "
                + PROPERTY
                + " to another topic, for example "
                + registry.applicationId()
                + "-dlq");
      }
    }
    return topic;
  }

  /** The replication factor Kafka Streams gives its own topics, empty for the broker's default. */
  static Optional<Short> replicationFactor(KafkaStreamsConfiguration streams) {
    Object value = streams.asProperties().get(StreamsConfig.REPLICATION_FACTOR_CONFIG);
    if (value == null) {
      return Optional.empty();
    }
    short factor = Short.parseShort(value.toString().trim());
    return (factor > 0) ? Optional.of(factor) : Optional.empty();
  }
}
