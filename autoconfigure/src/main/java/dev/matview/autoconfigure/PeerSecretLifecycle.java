package dev.matview.autoconfigure;

import java.util.Properties;
import java.util.function.Supplier;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/**
 * Agrees on the shared secret before the instance serves, so a restarted one can ask the others to
 * route its first lookups while its own Kafka Streams starts.
 */
final class PeerSecretLifecycle extends BeforeServingLifecycle {

  private final PeerSecretEstablisher establisher;

  PeerSecretLifecycle(
      PeerSecretEstablisher establisher, Supplier<StreamsBuilderFactoryBean> factoryBean) {
    super(factoryBean, 1);
    this.establisher = establisher;
  }

  @Override
  void run(Properties configuration) {
    this.establisher.agreeOnce(configuration);
  }
}
