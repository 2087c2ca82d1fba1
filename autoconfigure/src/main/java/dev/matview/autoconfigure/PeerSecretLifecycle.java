package dev.matview.autoconfigure;

import java.util.Properties;
import java.util.function.Supplier;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/**
 * Agrees on the instances' shared secret after the start-up checks and before the instance serves:
 * a restarted instance can then ask the others to route its first lookups while its own Kafka
 * Streams is still starting.
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
