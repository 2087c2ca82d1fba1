package dev.matview.autoconfigure;

import dev.matview.kafka.StreamsListeners;
import org.springframework.core.Ordered;

/**
 * Adds some of Matview's own listeners to those that each Kafka Streams Matview creates keeps next
 * to the one listener of each kind set on it; {@link MatviewKafkaStreamsCustomizer} asks every
 * contributor bean in turn, in order, each time it creates a Kafka Streams.
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
