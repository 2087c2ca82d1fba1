package dev.matview.test;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Sets Kafka's loggers to WARN in the application of a {@link MatviewIntegrationTest}, whose
 * broker, clients and Kafka Streams would otherwise log well over a thousand lines at INFO: the
 * levels are the last property source, so a {@code logging.level} property set anywhere else, such
 * as {@code logging.level.org.apache.kafka=info}, overrides them.
 */
final class KafkaLoggingDefaults implements EnvironmentPostProcessor {

  /** The property that {@link MatviewIntegrationTest} sets to say that its application starts. */
  static final String MARKER = "matview.test.integration-test";

  private static final String NAME = "matviewTestKafkaLoggingDefaults";

  /**
   * Kafka's clients and Kafka Streams, the broker's own loggers, and Kafka Streams' client, which
   * logs under the class of Matview's subclass of {@code KafkaStreams}.
   */
  private static final Map<String, Object> LEVELS =
      Map.of(
          "logging.level.org.apache.kafka", "warn",
          "logging.level.kafka", "warn",
          "logging.level.state.change.logger", "warn",
          "logging.level.dev.matview.kafka.ComposingKafkaStreams", "warn");

  @Override
  public void postProcessEnvironment(
      ConfigurableEnvironment environment, SpringApplication application) {
    if (environment.getProperty(MARKER, Boolean.class, false)
        && !environment.getPropertySources().contains(NAME)) {
      environment.getPropertySources().addLast(new MapPropertySource(NAME, LEVELS));
    }
  }
}
