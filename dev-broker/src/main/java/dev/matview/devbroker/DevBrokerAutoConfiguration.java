package dev.matview.devbroker;

import dev.matview.broker.KraftBroker;
import java.nio.file.Path;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.context.annotation.Bean;

/**
 * Starts Matview's development broker when {@code matview.dev-broker.enabled=true} and no other
 * {@link KafkaConnectionDetails} (a {@code @ServiceConnection} container, say) is declared, before
 * any Kafka client of the application is configured: Kafka Streams, the admin, the producers and
 * consumers all take its address as their connection details.
 */
@AutoConfiguration(before = KafkaAutoConfiguration.class)
@ConditionalOnClass({KafkaConnectionDetails.class, KraftBroker.class})
@ConditionalOnBooleanProperty(DevBrokerProperties.PREFIX + ".enabled")
@ConditionalOnMissingBean(KafkaConnectionDetails.class)
@EnableConfigurationProperties(DevBrokerProperties.class)
public final class DevBrokerAutoConfiguration {

  /** The directory under the build folder that holds the broker's data by default. */
  static final String DEFAULT_DATA_DIR = "matview-dev-broker";

  @Bean(destroyMethod = "close")
  DevBroker matviewDevBroker(DevBrokerProperties properties) {
    int port = properties.getPort();
    if (port < 0 || port > 65535) {
      throw new InvalidConfigurationPropertyValueException(
          DevBrokerProperties.PREFIX + ".port",
          port,
          "It must be between 1 and 65535, for example 9092, or 0 for a free port.");
    }
    Path dataDir = properties.getDataDir();
    return DevBroker.start(
        port,
        (dataDir != null) ? dataDir : BuildFolder.of(Path.of("")).resolve(DEFAULT_DATA_DIR),
        properties.isKeepData());
  }
}
