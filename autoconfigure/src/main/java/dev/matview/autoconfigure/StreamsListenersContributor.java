package dev.matview.autoconfigure;

import dev.matview.kafka.StreamsListeners;
import org.springframework.core.Ordered;

/**
 * Adds Matview's listeners to each Kafka Streams it creates, next to the one of each kind set on
 * it; {@link MatviewKafkaStreamsCustomizer} asks every contributor bean in order.
 */
@FunctionalInterface
interface StreamsListenersContributor extends Ordered {

  /** Adds this contributor's listeners to {@code listeners}. */
  void contribute(StreamsListeners.Builder listeners);

  @Override
  default int getOrder() {
    return 0;
  }
}
