package dev.matview.autoconfigure;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Sets Kafka's loggers to WARN unless {@value #PROPERTY} is {@code verbose}, which otherwise log
 * over a thousand lines at INFO before Matview's start-up summary, as the last property source, so
 * any {@code logging.level} set elsewhere wins.
 */
final class KafkaLoggingDefaults implements EnvironmentPostProcessor {

  static final String PROPERTY = "matview.logging.kafka";

  static final String SOURCE_NAME = "matviewKafkaLoggingDefaults";

  /** Kafka's clients, Streams and broker loggers, and Matview's subclass of KafkaStreams. */
  private static final Map<String, Object> LEVELS =
      Map.of(
          "logging.level.org.apache.kafka", "warn",
          "logging.level.kafka", "warn",
          "logging.level.state.change.logger", "warn",
          "logging.level.dev.matview.kafka.ComposingKafkaStreams", "warn");

  @Override
  public void postProcessEnvironment(
      ConfigurableEnvironment environment, SpringApplication application) {
    MatviewProperties.KafkaLogging kafka =
        Binder.get(environment)
            .bind(PROPERTY, MatviewProperties.KafkaLogging.class)
            .orElse(MatviewProperties.KafkaLogging.QUIET);
    if (kafka == MatviewProperties.KafkaLogging.QUIET
        && !environment.getPropertySources().contains(SOURCE_NAME)) {
      environment.getPropertySources().addLast(new MapPropertySource(SOURCE_NAME, LEVELS));
    }
  }
}
