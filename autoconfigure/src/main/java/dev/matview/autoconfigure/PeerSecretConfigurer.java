package dev.matview.autoconfigure;

import dev.matview.peer.PeerTrust;
import dev.matview.peer.SecretAgreement;
import java.util.Properties;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.springframework.core.Ordered;
import org.springframework.kafka.config.KafkaStreamsCustomizer;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;

/**
 * Agrees on the instances' shared secret through Kafka just before Kafka Streams is created, when
 * none is configured, whether Kafka Streams starts with the context or later: a streams customizer
 * that does so wraps the one already set, which still creates and customizes Kafka Streams. {@link
 * PeerSecretLifecycle} agrees earlier, before the web server starts, when Kafka Streams starts with
 * the context.
 */
final class PeerSecretConfigurer implements StreamsBuilderFactoryBeanConfigurer {

  private final PeerTrust trust;

  private final SecretAgreement agreement;

  PeerSecretConfigurer(PeerTrust trust, SecretAgreement agreement) {
    this.trust = trust;
    this.agreement = agreement;
  }

  @Override
  public void configure(StreamsBuilderFactoryBean factoryBean) {
    KafkaStreamsCustomizer current = FactoryBeanSettings.kafkaStreamsCustomizer(factoryBean);
    factoryBean.setKafkaStreamsCustomizer(
        new AgreeFirst((current != null) ? current : (kafkaStreams) -> {}));
  }

  /**
   * Agrees on the secret with the other instances of the application that {@code properties}
   * configure, unless it is known already.
   */
  void agreeOnce(Properties properties) {
    synchronized (this.trust) {
      if (!this.trust.isEstablished()) {
        this.trust.establish(this.agreement.agree(properties));
      }
    }
  }

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE - 1;
  }

  /** Agrees on the secret once, then hands over to the customizer that was there before. */
  private final class AgreeFirst implements KafkaStreamsCustomizer {

    private final KafkaStreamsCustomizer delegate;

    AgreeFirst(KafkaStreamsCustomizer delegate) {
      this.delegate = delegate;
    }

    @Override
    public KafkaStreams initKafkaStreams(
        Topology topology, Properties properties, KafkaClientSupplier clientSupplier) {
      agreeOnce(properties);
      return this.delegate.initKafkaStreams(topology, properties, clientSupplier);
    }

    @Override
    public void customize(KafkaStreams kafkaStreams) {
      this.delegate.customize(kafkaStreams);
    }
  }
}
