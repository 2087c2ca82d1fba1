package dev.matview.autoconfigure;

import dev.matview.kafka.ComposingKafkaStreams;
import dev.matview.kafka.FilteringClientSupplier;
import dev.matview.kafka.StreamsListeners;
import java.util.Properties;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.kafka.config.KafkaStreamsCustomizer;

/**
 * Creates each Kafka Streams of the factory bean as Matview needs it, then has every {@link
 * KafkaStreamsCustomizer} bean customize it, in order (their {@code initKafkaStreams} is not
 * called).
 *
 * <p>It agrees on the peers' secret first, then creates a {@link ComposingKafkaStreams}, which
 * keeps every {@link StreamsListenersContributor}'s listeners next to the one of each kind set on
 * it, with clients created without Matview's keys through a {@link FilteringClientSupplier} around
 * the factory bean's client supplier.
 */
final class MatviewKafkaStreamsCustomizer implements KafkaStreamsCustomizer {

  private final PeerSecretEstablisher secret;

  private final ObjectProvider<StreamsListenersContributor> contributors;

  private final ObjectProvider<KafkaStreamsCustomizer> customizers;

  MatviewKafkaStreamsCustomizer(
      PeerSecretEstablisher secret,
      ObjectProvider<StreamsListenersContributor> contributors,
      ObjectProvider<KafkaStreamsCustomizer> customizers) {
    this.secret = secret;
    this.contributors = contributors;
    this.customizers = customizers;
  }

  @Override
  public KafkaStreams initKafkaStreams(
      Topology topology, Properties properties, KafkaClientSupplier clientSupplier) {
    this.secret.agreeOnce(properties);
    KafkaClientSupplier clients =
        (clientSupplier instanceof FilteringClientSupplier)
            ? clientSupplier
            : new FilteringClientSupplier(clientSupplier);
    return new ComposingKafkaStreams(topology, properties, clients, listeners());
  }

  @Override
  public void customize(KafkaStreams kafkaStreams) {
    this.customizers.orderedStream().forEach((customizer) -> customizer.customize(kafkaStreams));
  }

  /** Matview's listeners, as the contributors add them, in order. */
  StreamsListeners listeners() {
    StreamsListeners.Builder listeners = StreamsListeners.builder();
    this.contributors.orderedStream().forEach((contributor) -> contributor.contribute(listeners));
    return listeners.build();
  }
}
